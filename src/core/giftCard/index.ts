export * from './apply';
export * from './code';
export * from './delivery';
