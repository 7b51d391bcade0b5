import { expect, it } from 'vitest';
import { SITE_EDITOR_FRAME_ATTRIBUTE } from '../../core/siteEditor';
import { EDITOR_FRAME_SELECTOR } from './editorFrames';

it("finds the frames the admin's pages mark as the site editor's", () => {
  expect(EDITOR_FRAME_SELECTOR).toBe(`iframe[${SITE_EDITOR_FRAME_ATTRIBUTE}]`);
});
