/**
 * The blocks an e-mail is made of, each with its HTML (inline styles) and how it reads in the text part (see
 * ./render.ts). A block whose words differ between the two parts takes `text`: what the text part says instead.
 */
import { Fragment, type CSSProperties, type ReactNode } from 'react';
import { withText } from './render';
import * as style from './styles';

/**
 * The e-mail's headline. The text part has no headline (its subject is one): it says `text` in its place, or nothing.
 */
export const Heading = withText(
  ({ children }: { children: ReactNode; text?: string }) => (
    <h1 style={{ fontSize: '22px', lineHeight: 1.3, margin: '0 0 16px' }}>{children}</h1>
  ),
  ({ text }) => text ?? null,
);

interface ParagraphProps {
  children: ReactNode;
  /** Smaller, grey: a note. */
  muted?: boolean;
  /** Extra room after it (before a table or the next section). */
  spaced?: boolean;
  style?: CSSProperties;
  /** What the text part says instead of the children (null: nothing). */
  text?: string | null;
}

/** A paragraph; in the text part, its words on their lines (a <br> is a line break, a Link is 'label: address'). */
export const Paragraph = withText(
  ({ children, muted, spaced, style: extra }: ParagraphProps) => (
    <p style={{ margin: spaced ? '0 0 24px' : '0 0 16px', ...(muted ? style.muted : {}), ...extra }}>{children}</p>
  ),
  ({ children, text }, read) => (text === undefined ? read.inline(children) : text),
);

/** A titled part ('How to pay', 'Shipping to'): an <h2> in HTML, 'Title:' on the block's first line in the text. */
export const Section = withText(
  ({ title, children }: { title: string; children: ReactNode }) => (
    <>
      <h2 style={{ fontSize: '18px', margin: '0 0 8px' }}>{title}</h2>
      {children}
    </>
  ),
  ({ title, children }, read) => [`${title}:`, ...read.blocks(children)].join('\n'),
);

/** Blocks that read as one in the text part (their lines follow each other without an empty line). */
export const Together = withText(
  ({ children }: { children: ReactNode }) => <>{children}</>,
  ({ children }, read) => read.blocks(children).join('\n'),
);

/** Text typed with line breaks (instructions, a message, an answer): a <br> at each, as typed in the text part. */
export const Lines = withText(
  ({ text }: { text: string }) => (
    <>
      {text.split(/\r?\n/).map((line, i) => (
        <Fragment key={i}>
          {i > 0 && <br />}
          {line}
        </Fragment>
      ))}
    </>
  ),
  ({ text }) => text,
);

interface LinkProps {
  href: string;
  children: string;
  /** What the text part says before the address, when not the label. */
  text?: string;
}

/** A link; in the text part 'label: address' (the address alone when it is the label). */
export const Link = withText(
  ({ href, children }: LinkProps) => (
    <a href={href} style={style.link}>
      {children}
    </a>
  ),
  ({ href, children, text }) => {
    const label = text ?? children;
    return label === href ? href : `${label}: ${href}`;
  },
);

/** Words set apart (a gift message): a quote bar in HTML. */
export const Quote = withText(
  ({ children }: { children: ReactNode; text?: string }) => (
    <blockquote style={{ margin: '0 0 16px', padding: '8px 16px', borderLeft: '4px solid #d0d0d0' }}>
      {children}
    </blockquote>
  ),
  ({ children, text }, read) => text ?? read.inline(children),
);
