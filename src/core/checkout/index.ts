/** The checkout's pure rules: address, shipping, coupons, tax, totals and the test provider's card form. */
export * from './types';
export * from './address';
export * from './postalCode';
export * from './shipping';
export * from './coupon';
export * from './tax';
export * from './totals';
export * from './card';
export * from './purchaseEvent';
