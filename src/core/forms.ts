/** Forms of spec §3, §5 and §8: field kinds and values, validation, answer summaries, submission and restock texts. */
export * from './forms/fields';
export * from './forms/values';
export * from './forms/validation';
export * from './forms/summary';
export * from './forms/productForm';
export * from './forms/submission';
export * from './forms/restock';
