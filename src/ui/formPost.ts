/**
 * What a form posted without JavaScript comes back with (the page is rendered again for that visitor): the posted
 * form's field errors, its form-level error, or its success. Pages rendered for everyone carry none.
 */
import { createContext } from 'react';

export interface FormPostState {
  formId: string;
  fieldErrors: Record<string, string>;
  error: string | null;
  success: boolean;
  /** What the visitor posted, by input name (a field's id, or `id.part`), to fill the fields in again. */
  values: Record<string, string[]>;
}

export const FormPostContext = createContext<FormPostState | null>(null);

/**
 * Stands in for the visitor's crumb in the hidden field of a form rendered into a cached page; the page route puts
 * the visitor's own crumb in its place when it sends the page (src/server/routes/pages.tsx).
 */
export const CRUMB_PLACEHOLDER = 'vitrine-crumb-placeholder';
