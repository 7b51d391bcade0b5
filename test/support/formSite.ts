/**
 * The form tests' shop: a contact form with CAPTCHA, one without (with a success redirect), a survey with every field
 * kind, and a newsletter.
 */
import type { SiteFileInput } from '../../src/modules/site/schema';
import { checkoutSite } from './checkoutSite';

export { SHOP_HOST, seedSite } from './cartSite';

export const formSite: SiteFileInput = {
  ...checkoutSite,
  forms: [
    ...(checkoutSite.forms ?? []),
    {
      id: 'contact',
      name: 'Contact',
      submitLabel: 'Send',
      submissionMessage: 'Thank you! We answer within two working days.',
      captcha: true,
      fields: [
        { id: 'name', kind: 'name', title: 'Name', required: true },
        { id: 'email', kind: 'email', title: 'Email', required: true },
        { id: 'message', kind: 'textarea', title: 'Message', required: true, maxLength: 200 },
        { id: 'source', kind: 'hidden', title: 'Source', value: 'contact-page' },
      ],
    },
    {
      id: 'quick',
      name: 'Quick question',
      submitLabel: 'Ask',
      successRedirect: '/thanks',
      fields: [
        { id: 'question', kind: 'text', title: 'Question', required: true },
        { id: 'source', kind: 'hidden', title: 'Source', value: 'quick-page' },
      ],
    },
    {
      id: 'plain',
      name: 'Plain',
      submitLabel: 'Send',
      submissionMessage: 'Got it.',
      fields: [{ id: 'note', kind: 'text', title: 'Note', required: true }],
    },
    {
      id: 'survey',
      name: 'Survey',
      submitLabel: 'Send',
      submissionMessage: 'Thanks for answering.',
      fields: [
        { id: 'subject', kind: 'text', title: 'Subject', required: true },
        { id: 'details', kind: 'textarea', title: 'Details', maxLength: 500 },
        { id: 'email', kind: 'email', title: 'Email' },
        { id: 'site', kind: 'url', title: 'Website' },
        { id: 'count', kind: 'number', title: 'How many', required: true },
        { id: 'day', kind: 'date', title: 'Day' },
        { id: 'at', kind: 'time', title: 'Time' },
        { id: 'who', kind: 'name', title: 'Name' },
        { id: 'where', kind: 'address', title: 'Address' },
        { id: 'tel', kind: 'phone', title: 'Phone', showCountryCode: true },
        { id: 'extras', kind: 'checkbox', title: 'Extras', options: ['Gift wrap', 'Receipt', 'Card'] },
        { id: 'size', kind: 'radio', title: 'Size', options: ['Small', 'Large'] },
        { id: 'colour', kind: 'select', title: 'Colour', options: ['Red', 'Blue'] },
        { id: 'mood', kind: 'likert', title: 'Mood', questions: ['Fast?', 'Friendly?'] },
        { id: 'ref', kind: 'hidden', title: 'Referrer', value: 'survey-page' },
      ],
    },
    {
      id: 'newsletter',
      name: 'Newsletter',
      kind: 'newsletter',
      submitLabel: 'Sign up',
      submissionMessage: 'Check your inbox.',
      fields: [{ id: 'email', kind: 'email', title: 'Email', required: true }],
    },
  ],
  pages: [
    { id: 'contact', path: '/contact', title: 'Contact', blocks: [{ type: 'form', formId: 'contact' }] },
    { id: 'quick', path: '/quick', title: 'Quick', blocks: [{ type: 'form', formId: 'quick' }] },
    {
      id: 'plain',
      path: '/plain',
      title: 'Plain',
      blocks: [
        { type: 'form', formId: 'plain' },
        { type: 'form', formId: 'newsletter' },
      ],
    },
    { id: 'survey', path: '/survey', title: 'Survey', blocks: [{ type: 'form', formId: 'survey' }] },
    { id: 'thanks', path: '/thanks', title: 'Thanks', blocks: [{ type: 'text', text: 'Thanks!' }] },
  ],
};
