/**
 * A collection's delete page (/admin/collections/{id}/delete, issue 26): what the shop or blog holds and where it is
 * shown, then why it cannot be deleted yet or the confirmation. A plain form: it works without JavaScript and by
 * keyboard (the box is required; the server checks it again).
 */
import { ConfirmDelete } from './ConfirmDelete';
import { COLLECTIONS_PATH, pagePath } from './Pages';

export const collectionDeletePath = (id: string): string => `${COLLECTIONS_PATH}/${id}/delete`;

/** At most this many of its products or posts are listed by name (the count says how many in all). */
const LISTED = 20;

export interface DeleteCollectionProps {
  crumb: string;
  crumbField: string;
  version: number;
  collection: { id: string; title: string; slug: string };
  /** 'shop', 'blog' or 'collection'. */
  word: string;
  /** 'product' or 'post'. */
  itemWord: string;
  /** Where its items are edited ('/admin/products', '/admin/posts'), each at `${itemsPath}/{id}`. */
  itemsPath: string;
  items: readonly { id: string; name: string }[];
  shownBy: readonly { id: string; title: string; path: string }[];
  header: 'menu' | 'navigation' | 'none';
  /** Why it cannot be deleted now (null: the confirmation is shown). */
  refusal: string | null;
}

const HEADER_WORDS: Readonly<Record<DeleteCollectionProps['header'], string>> = {
  navigation: 'In the header’s navigation (the storefront’s own, which lists every shop and blog).',
  menu: 'In the header’s menu, set in the design: the delete takes it out.',
  none: 'Not in the header: the design’s menu leaves it out.',
};

export function DeleteCollection(props: DeleteCollectionProps) {
  const { collection, word, items } = props;
  const n = items.length;
  const plural = `${props.itemWord}s`;
  const blockWord = word === 'blog' ? 'blog posts block' : 'product grid';
  return (
    <>
      <section className="admin-card" aria-labelledby="collection-holds">
        <h2 id="collection-holds">What it holds</h2>
        <p>
          {n === 0
            ? `The ${word} “${collection.title}” holds no ${plural}.`
            : `The ${word} “${collection.title}” holds ${n} ${n === 1 ? props.itemWord : plural}:`}
        </p>
        {n ? (
          <ul>
            {items.slice(0, LISTED).map((item) => (
              <li key={item.id}>
                <a href={`${props.itemsPath}/${encodeURIComponent(item.id)}`}>{item.name}</a>
              </li>
            ))}
            {n > LISTED ? <li>{`and ${n - LISTED} more`}</li> : null}
          </ul>
        ) : null}
        <h2 id="collection-shown">Where it is shown</h2>
        <ul>
          <li>
            {'At its own URL, '}
            <a href={`/${collection.slug}`}>{`/${collection.slug}`}</a>
          </li>
          <li>{HEADER_WORDS[props.header]}</li>
          {props.shownBy.map((page) => (
            <li key={page.id}>
              {`By a ${blockWord} on the page `}
              <a href={pagePath(page.id)}>{page.title}</a>
              {` (${page.path})`}
            </li>
          ))}
        </ul>
      </section>
      <section className="admin-card" aria-labelledby="delete-collection-heading">
        <h2 id="delete-collection-heading">{`Delete this ${word}`}</h2>
        {props.refusal !== null ? (
          <p>{`It cannot be deleted yet. ${props.refusal}`}</p>
        ) : (
          <>
            <p>
              {`The ${word} leaves the site and the header; its URL /${collection.slug} then answers “not found”. Links to it in text or image blocks are not changed: check them. The versions keep it: restoring an earlier version brings it back.`}
            </p>
            <form className="admin-form" method="post" action={collectionDeletePath(collection.id)}>
              <input type="hidden" name={props.crumbField} value={props.crumb} />
              <input type="hidden" name="baseVersion" value={props.version} />
              <ConfirmDelete name={collection.title} button={`Delete ${word}`} />
            </form>
          </>
        )}
      </section>
    </>
  );
}
