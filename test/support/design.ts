/** A site design away from every default (website.design), for the design's integration and browser tests. */
export const TEST_DESIGN = {
  logo: { file: 'images/bud-vase.jpg', altText: 'Vitrine Demo home' },
  favicon: { file: 'images/coffee-scoop.jpg' },
  colours: {
    background: '#fffbf2',
    text: '#1b1b3a',
    accent: '#6a1b9a',
    buttonBackground: '#1b1b3a',
    buttonText: '#ffffff',
  },
  // Two of the fonts that ship with Vitrine (served by the site itself, src/ui/fonts).
  headingFont: 'playfair-display',
  bodyFont: 'inter',
  buttonShape: 'square',
  menu: ['about', 'shop', 'home'],
  footerLinks: [
    { label: 'About us', page: 'about' },
    { label: 'Terms', url: 'https://example.com/terms' },
  ],
};
