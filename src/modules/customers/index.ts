/**
 * Customers (issue 25): the owner's list of who bought, built from the orders (src/modules/orders customers.ts).
 * Other modules import this module through this file only (eslint: module boundaries).
 */
export {};
