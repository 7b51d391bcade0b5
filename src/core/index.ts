/** The pure storefront core: import from here. Each engineer appends their modules' exports. */
export * from './result';
export * from './timing';

// Forms, e-mail/URL checks, visitor cookies, web vitals, images, colours, text, comments,
// calendar links, the address dictionary and the error reporter.
export * from './forms';
export * from './email';
export * from './url';
export * from './visitorCookie';
export * from './webVitals';
export * from './images';
export * from './colour';
export * from './text';
export * from './canonicalJson';
export * from './comments';
export * from './calendar';
// Media, blog and social: video embeds, event dates, share and social links, categories and tags, likes.
export * from './videoEmbed';
export * from './eventDates';
export * from './share';
export * from './social';
export * from './blogTaxonomy';
export * from './likes';
export * from './address';
export * from './errorReporter';

// Commerce: enumerations, money and the 27 currencies, product display states, variants, labels, quantity,
// the ordered add-to-cart checks and their messages, purchase routing, cart pill, subscriptions, pay-later, gallery.
export * from './enums';
export * from './currency';
export * from './money';
export * from './product';
export * from './variant';
export * from './labels';
export * from './quantity';
export * from './addToCart';
export * from './addToCartErrors';
export * from './purchaseRoute';
export * from './cartPill';
export * from './cartLoad';
export * from './cartClaim';
export * from './subscription';
export * from './payLater';
export * from './gallery';
export * from './checkout';

// Restock (back in stock) notifications: the form's target variant, the sign-up payload, send limits.
export * from './restock';

// Site search: query words, folding, highlighting, snippets, page numbers.
export * from './search';

// Add-on and related products of a product page: which ones, in which order, and which add at once.
export * from './relatedProducts';
