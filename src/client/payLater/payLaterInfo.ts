/**
 * The pay-later information popup's content, shipped with the store (the spec fetches it from the provider's host by
 * language and country; Vitrine makes no outside request), in the languages of §9: English and French.
 */
export interface PayLaterInfo {
  title: (brand: string) => string;
  steps: readonly ((brand: string) => string)[];
  note: (brand: string) => string;
  close: string;
}

export const PAY_LATER_INFO: Readonly<Record<'en' | 'fr', PayLaterInfo>> = {
  en: {
    title: (brand) => `Pay in 4 interest-free instalments with ${brand}`,
    steps: [
      (brand) => `Add your items to the cart and choose ${brand} when you pay.`,
      (brand) => `Sign in or sign up with ${brand}: you know at once whether you are approved.`,
      () => 'Pay the first instalment today, then the rest every 2 weeks.',
    ],
    note: (brand) =>
      `No interest, and no fees when you pay on time. Eligibility criteria and late fees apply: see the ${brand} terms when you pay.`,
    close: 'Close',
  },
  fr: {
    title: (brand) => `Payez en 4 versements sans intérêts avec ${brand}`,
    steps: [
      (brand) => `Ajoutez vos articles au panier et choisissez ${brand} au moment de payer.`,
      (brand) => `Connectez-vous ou inscrivez-vous à ${brand} : vous savez tout de suite si vous êtes approuvé.`,
      () => 'Payez le premier versement aujourd’hui, puis les suivants toutes les 2 semaines.',
    ],
    note: (brand) =>
      `Aucun intérêt, et aucuns frais si vous payez à temps. Des critères d’admissibilité et des frais de retard s’appliquent : voyez les conditions de ${brand} au moment de payer.`,
    close: 'Fermer',
  },
};
