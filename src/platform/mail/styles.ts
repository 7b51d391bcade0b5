/**
 * The inline styles of every e-mail (mail clients drop style sheets and <style> often): one palette and type scale,
 * plain CSS that Gmail, Outlook and Apple Mail all read.
 */
import type { CSSProperties } from 'react';

export const FONT = 'Helvetica,Arial,sans-serif';
export const INK = '#1a1a1a';
export const MUTED = '#555555';
export const LINE = '#dddddd';
export const LINK = '#0b57d0';
export const PAGE = '#f4f4f5';

export const muted: CSSProperties = { color: MUTED, fontSize: '14px' };
export const link: CSSProperties = { color: LINK };
/** A table cell of the e-mail's own tables (an order's items). */
export const cell: CSSProperties = { padding: '8px', borderBottom: `1px solid ${LINE}`, verticalAlign: 'top' };
/** A cell with an amount or a count: right-aligned, on one line. */
export const numberCell: CSSProperties = { ...cell, textAlign: 'right', whiteSpace: 'nowrap' };
