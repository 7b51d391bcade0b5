/** The new-collection form (/admin/collections/new, issue 26): a shop or a blog, its title and its URL. No JavaScript. */
import { COLLECTIONS_PATH } from './Pages';

export const NEW_COLLECTION_PATH = `${COLLECTIONS_PATH}/new`;

export interface NewCollectionFormProps {
  crumb: string;
  crumbField: string;
  version: number;
  kinds: readonly { value: string; label: string }[];
  values: { title: string; kind: string; slug: string };
  problems: Readonly<Record<string, string>>;
}

const invalid = (problems: Readonly<Record<string, string>>, name: string, hint?: string) => {
  const ids = [hint ? `collection-${name}-hint` : '', problems[name] ? `collection-${name}-error` : '']
    .filter(Boolean)
    .join(' ');
  return { ...(problems[name] ? { 'aria-invalid': true as const } : {}), ...(ids ? { 'aria-describedby': ids } : {}) };
};

function Problem(props: { name: string; problems: Readonly<Record<string, string>> }) {
  const message = props.problems[props.name];
  return message ? (
    <span className="admin-field-error" id={`collection-${props.name}-error`}>
      {message}
    </span>
  ) : null;
}

export function NewCollectionForm(props: NewCollectionFormProps) {
  const { values, problems } = props;
  return (
    <form className="admin-form admin-card" method="post" action={COLLECTIONS_PATH} aria-labelledby="new-collection">
      <h2 id="new-collection">New collection</h2>
      <input type="hidden" name={props.crumbField} value={props.crumb} />
      <input type="hidden" name="baseVersion" value={props.version} />
      <fieldset id="collection-kind" {...invalid(problems, 'kind')}>
        <legend>Kind</legend>
        {props.kinds.map((kind) => (
          <div className="admin-check" key={kind.value}>
            <input
              type="radio"
              id={`collection-kind-${kind.value}`}
              name="kind"
              value={kind.value}
              defaultChecked={values.kind === kind.value}
            />
            <label htmlFor={`collection-kind-${kind.value}`}>{kind.label}</label>
          </div>
        ))}
        <Problem name="kind" problems={problems} />
      </fieldset>
      <div>
        <label htmlFor="collection-title">Title</label>
        <input
          id="collection-title"
          name="title"
          type="text"
          required
          maxLength={200}
          defaultValue={values.title}
          {...invalid(problems, 'title')}
        />
        <Problem name="title" problems={problems} />
      </div>
      <div>
        <label htmlFor="collection-slug">URL</label>
        <input
          id="collection-slug"
          name="slug"
          type="text"
          maxLength={200}
          placeholder="/journal"
          autoCapitalize="none"
          spellCheck={false}
          defaultValue={values.slug}
          {...invalid(problems, 'slug', 'hint')}
        />
        <span className="admin-hint" id="collection-slug-hint">
          One part, like /journal or /gifts; empty makes one from the title. Its items are under it (/journal/a-post).
        </span>
        <Problem name="slug" problems={problems} />
      </div>
      <div>
        <button type="submit" className="admin-button">
          Create collection
        </button>
      </div>
    </form>
  );
}
