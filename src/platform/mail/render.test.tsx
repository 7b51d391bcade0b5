import { describe, expect, it } from 'vitest';
import { Heading, Lines, Link, Paragraph, Quote, Section, Together } from './blocks';
import { Layout } from './Layout';
import { renderMail, renderText, withText } from './render';

const NAME = '<b>&"\'</b>';

describe('renderMail', () => {
  it('renders one tree as a whole HTML document in the layout and as plain text with the same words and links', () => {
    const Total = withText(
      ({ amount }: { amount: string }) => (
        <table>
          <tbody>
            <tr>
              <th>Total</th>
              <td>{amount}</td>
            </tr>
          </tbody>
        </table>
      ),
      ({ amount }) => `Total: ${amount}`,
    );
    const mail = renderMail(
      `Hello ${NAME}`,
      <Layout
        shopName={`Shop ${NAME}`}
        subject={`Hello ${NAME}`}
        footer={<Paragraph>Why you got this</Paragraph>}
        signOff
      >
        <Heading text="The headline, in the text's words">Headline</Heading>
        <Paragraph>
          Hello {NAME},<br />
          welcome.
        </Paragraph>
        <Section title="How to pay">
          <Paragraph>
            <Lines text={'Line one\nLine two'} />
          </Paragraph>
        </Section>
        <Total amount="$1.00" />
        <Quote text="Their message: hi">hi</Quote>
        <Together>
          <Paragraph>
            Shop at <Link href="https://shop.test/">https://shop.test/</Link>
          </Paragraph>
          <Paragraph>Next line</Paragraph>
        </Together>
        <Paragraph>
          <Link href="https://shop.test/o?a=1&b=2">View your order</Link>
        </Paragraph>
        <Paragraph text="Said otherwise in the text">Said in HTML</Paragraph>
        <Paragraph text={null}>Only in HTML</Paragraph>
      </Layout>,
    );
    expect(mail.subject).toBe(`Hello ${NAME}`);
    expect(mail.text).toBe(
      [
        "The headline, in the text's words",
        '',
        `Hello ${NAME},`,
        'welcome.',
        '',
        'How to pay:',
        'Line one',
        'Line two',
        '',
        'Total: $1.00',
        '',
        'Their message: hi',
        '',
        'Shop at https://shop.test/',
        'Next line',
        '',
        'View your order: https://shop.test/o?a=1&b=2',
        '',
        'Said otherwise in the text',
        '',
        'Why you got this',
        '',
        `Shop ${NAME}`,
        '',
      ].join('\n'),
    );
    expect(mail.html.startsWith('<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>')).toBe(true);
    expect(mail.html).toContain('<title>Hello &lt;b&gt;&amp;&quot;&#x27;&lt;/b&gt;</title>');
    expect(mail.html).toContain('>Shop &lt;b&gt;&amp;&quot;&#x27;&lt;/b&gt;</td>');
    expect(mail.html).toContain('Hello &lt;b&gt;&amp;&quot;&#x27;&lt;/b&gt;,<br/>');
    expect(mail.html).not.toContain(NAME);
    expect(mail.html).toContain('<h1 style="font-size:22px;line-height:1.3;margin:0 0 16px">Headline</h1>');
    expect(mail.html).toContain('<h2 style="font-size:18px;margin:0 0 8px">How to pay</h2>');
    expect(mail.html).toContain('Line one<br/>Line two');
    expect(mail.html).toContain('<a href="https://shop.test/o?a=1&amp;b=2" style="color:#0b57d0">View your order</a>');
    expect(mail.html).toContain('Said in HTML');
    expect(mail.html).toContain('Only in HTML');
    expect(mail.html).not.toContain('Said otherwise');
    // Inline styles only: mail clients drop style sheets.
    expect(mail.html).not.toMatch(/<style|<link|class=/);
  });

  it('reads a component without a text rule through its tree, and nothing as an empty text', () => {
    const Greeting = ({ name }: { name: string }) => <Paragraph>Hi {name}</Paragraph>;
    expect(renderText(<Greeting name="Ada" />)).toBe('Hi Ada\n');
    expect(renderText(null)).toBe('');
    expect(renderText(<Heading>Only in HTML</Heading>)).toBe('');
  });
});
