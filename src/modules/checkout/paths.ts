/** Where an order's page is: its address is the secret that opens it (the order's random id). */
export const ORDER_PATH_PREFIX = '/checkout/order/';
export const orderPath = (orderId: string): string => ORDER_PATH_PREFIX + orderId;

/** The absolute URL of an order page, for e-mails: on the site's own address (`mailLinkOrigin`), never a forged Host. */
export const orderUrlFor =
  (origin: string) =>
  (orderId: string): string =>
    `${origin}${orderPath(orderId)}`;
