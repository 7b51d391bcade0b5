/**
 * Gift cards: purchase, codes and balances, delivery e-mails on their date, `vitrine giftcards`.
 * Other modules import this module through this file only (eslint: module boundaries).
 */
export {
  GIFT_MESSAGE_MAX_LENGTH,
  RECIPIENT_NAME_MAX_LENGTH,
  type GiftCardPurchaseField,
  type GiftCardPurchaseValues,
} from './giftCardPurchase';
export {
  giftCardPaymentsOfOrder,
  giftCardsBoughtByOrder,
  giftCardsForOrder,
  returnGiftCardsOfOrder,
  spendGiftCards,
  type GiftCardsForOrder,
  type QuotedGiftCard,
} from './giftCards';
export { giftCardPages } from './pages/giftCardCheckout';
