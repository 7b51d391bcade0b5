/**
 * One e-mail, two parts from one React tree: the HTML by React's renderToStaticMarkup (React escapes every value: no
 * template escapes by hand), and the plain text by walking the same tree. A component says how it reads as text with
 * withText (the blocks of ./blocks.tsx do, and a module's own parts such as an order's item table); any other
 * component is called for its tree, and elements read as their children, a <br> as a line break.
 *
 * The text part is a list of blocks (paragraphs, sections, link lines) separated by one empty line and ending with a
 * line break, so it holds what the HTML says, links written out in full.
 */
import { Fragment, isValidElement, type FunctionComponent, type ReactElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

/** An e-mail ready for the outbox: one-line subject, plain text, HTML. */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** Reads nodes as text: inline (one string, line breaks kept) or as blocks (each block's text). */
export interface TextReader {
  inline(node: ReactNode): string;
  blocks(node: ReactNode): string[];
}

/** How a component reads in the text part: its block(s), or null for nothing (an HTML-only heading). */
export type TextRule<P> = (props: P, read: TextReader) => string | readonly string[] | null;

const TEXT_RULE = Symbol('mail text rule');
type WithTextRule<P> = FunctionComponent<P> & { [TEXT_RULE]?: TextRule<P> };

/** The component, which reads as `rule` says in the text part. */
export function withText<P>(component: FunctionComponent<P>, rule: TextRule<P>): FunctionComponent<P> {
  (component as WithTextRule<P>)[TEXT_RULE] = rule;
  return component;
}

type AnyProps = Record<string, unknown> & { children?: ReactNode };

function ruleOf(element: ReactElement): TextRule<AnyProps> | undefined {
  return typeof element.type === 'function' ? (element.type as WithTextRule<AnyProps>)[TEXT_RULE] : undefined;
}

/** A function component without a text rule, called for its tree (mail components are pure: no hooks, no state). */
function expand(element: ReactElement): ReactNode {
  return (element.type as (props: AnyProps) => ReactNode)(element.props as AnyProps);
}

const reader: TextReader = {
  inline(node) {
    if (node === null || node === undefined || typeof node === 'boolean') return '';
    if (typeof node === 'string' || typeof node === 'number' || typeof node === 'bigint') return String(node);
    if (Array.isArray(node)) return node.map((n: ReactNode) => reader.inline(n)).join('');
    if (!isValidElement(node)) return '';
    const props = node.props as AnyProps;
    const rule = ruleOf(node);
    if (rule) {
      const read = rule(props, reader);
      return read === null ? '' : typeof read === 'string' ? read : read.join('\n\n');
    }
    if (node.type === 'br') return '\n';
    if (typeof node.type === 'function') return reader.inline(expand(node));
    return reader.inline(props.children);
  },
  blocks(node) {
    if (node === null || node === undefined || typeof node === 'boolean') return [];
    if (Array.isArray(node)) return node.flatMap((n: ReactNode) => reader.blocks(n));
    if (!isValidElement(node)) {
      const text = reader.inline(node);
      return text === '' ? [] : [text];
    }
    const rule = ruleOf(node);
    if (rule) {
      const read = rule(node.props as AnyProps, reader);
      return (read === null ? [] : typeof read === 'string' ? [read] : [...read]).filter((block) => block !== '');
    }
    if (node.type === Fragment || typeof node.type === 'string')
      return reader.blocks((node.props as AnyProps).children);
    if (typeof node.type === 'function') return reader.blocks(expand(node));
    return [];
  },
};

/** The plain-text part of a mail tree: its blocks, one empty line between them, ending with a line break. */
export function renderText(mail: ReactNode): string {
  const blocks = reader.blocks(mail);
  return blocks.length === 0 ? '' : `${blocks.join('\n\n')}\n`;
}

/** The HTML part of a mail tree (a whole document: the tree's root is the Layout's <html>). */
export function renderHtml(mail: ReactElement): string {
  return `<!DOCTYPE html>${renderToStaticMarkup(mail)}`;
}

/** Both parts of the mail whose tree is `mail` (a <Layout>), with its subject. */
export function renderMail(subject: string, mail: ReactElement): RenderedEmail {
  return { subject, text: renderText(mail), html: renderHtml(mail) };
}

/** One line for a header: no control character (a line break above all) may break a subject or name. */
export const oneLine = (text: string): string =>
  text
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
