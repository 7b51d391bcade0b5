import { describe, expect, it } from 'vitest';
import * as forms from './forms';

describe('forms barrel', () => {
  it('exposes every part of the forms module', () => {
    for (const name of [
      'validateForm',
      'readFieldValue',
      'summarizeFormAnswer',
      'submissionFailure',
      'validateRestockEmail',
      'FORM_FIELD_KINDS',
    ]) {
      expect(forms).toHaveProperty(name);
    }
  });
});
