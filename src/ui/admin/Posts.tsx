/**
 * The blog post editor's parts (/admin/posts, issue 26): the posts, newest first, with their blog, date, status and
 * tags; the new-post form; a post's editor (title, URL, blog, author, date, excerpt, text, tags, categories, status);
 * the delete form. Plain forms: everything works without JavaScript.
 */
import type { ReactNode } from 'react';
import { TAG_MAX_LENGTH } from '../../core/postEditor';
import type { PublicationStatus } from '../../core/publishing';
import { AdminTableBox } from './AdminFrame';
import { ConfirmDelete } from './ConfirmDelete';
import { StatusBadge, StatusFields, type StatusFieldsProps } from './StatusFields';

export const POSTS_PATH = '/admin/posts';
export const postEditorPath = (id: string): string => `${POSTS_PATH}/${id}`;

interface FormProps {
  crumb: string;
  crumbField: string;
  version: number;
}

function Hidden(props: FormProps) {
  return (
    <>
      <input type="hidden" name={props.crumbField} value={props.crumb} />
      <input type="hidden" name="baseVersion" value={props.version} />
    </>
  );
}

/** The id of a field's input (a problem's link points at it). */
export const postFieldId = (name: string): string => `field-${name}`;

/** A field: its label, its input, a hint and its error under it (the input says so: aria-invalid, aria-describedby). */
function Field(props: {
  name: string;
  label: string;
  problems: Readonly<Record<string, string>>;
  hint?: string;
  input: (attributes: Record<string, unknown>) => ReactNode;
}) {
  const id = postFieldId(props.name);
  const message = props.problems[props.name];
  const described = [props.hint ? `${id}-hint` : '', message ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div>
      <label htmlFor={id}>{props.label}</label>
      {props.input({
        id,
        name: props.name,
        ...(message ? { 'aria-invalid': true } : {}),
        ...(described ? { 'aria-describedby': described } : {}),
      })}
      {props.hint ? (
        <span className="admin-hint" id={`${id}-hint`}>
          {props.hint}
        </span>
      ) : null}
      {message ? (
        <span className="admin-field-error" id={`${id}-error`}>
          {message}
        </span>
      ) : null}
    </div>
  );
}

export interface PostRow {
  id: string;
  title: string;
  blog: string;
  publishedOn: string;
  status: PublicationStatus;
  /** For a scheduled post: when it goes live, in the site's time zone ('2026-06-01 10:00'). */
  publishAt?: string;
  tags: readonly string[];
  /** Its address on the store, while it is live. */
  href?: string;
}

export function PostsTable(props: { rows: readonly PostRow[] }) {
  if (props.rows.length === 0) return <p className="admin-muted">No posts yet: write the first one below.</p>;
  return (
    <AdminTableBox label="Posts">
      <table className="admin-table">
        <caption className="admin-sr-only">Posts, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Post</th>
            <th scope="col">Blog</th>
            <th scope="col">Date</th>
            <th scope="col">Status</th>
            <th scope="col">Tags</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={row.id}>
              <th scope="row">
                <a href={postEditorPath(row.id)}>{row.title}</a>
              </th>
              <td>{row.blog}</td>
              <td className="admin-nowrap">{row.publishedOn}</td>
              <td>
                <StatusBadge status={row.status} />
                {row.publishAt ? <span className="admin-muted">{` ${row.publishAt}`}</span> : null}
              </td>
              <td>{row.tags.join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </AdminTableBox>
  );
}

/** The Status fieldset's choices, the one chosen and the time typed (src/modules/site/statusForm.ts). */
export interface PostStatusChoices {
  status: Omit<StatusFieldsProps, 'problems'>;
}

export function CreatePostForm(
  props: FormProps &
    PostStatusChoices & {
      blogs: readonly { id: string; title: string }[];
      values?: { title: string; collectionId: string };
      problems?: Record<string, string>;
    },
) {
  const problems = props.problems ?? {};
  const values = props.values;
  return (
    <form className="admin-form admin-card" method="post" action={POSTS_PATH} aria-labelledby="new-post-heading">
      <h2 id="new-post-heading">New post</h2>
      <Hidden {...props} />
      <Field
        name="title"
        label="Title"
        problems={problems}
        input={(a) => <input {...a} type="text" required maxLength={200} defaultValue={values?.title} />}
      />
      <Field
        name="collectionId"
        label="Blog"
        problems={problems}
        input={(a) => (
          <select {...a} defaultValue={values?.collectionId}>
            {props.blogs.map((b) => (
              <option key={b.id} value={b.id}>
                {b.title}
              </option>
            ))}
          </select>
        )}
      />
      <StatusFields {...props.status} problems={problems} nested />
      <div>
        <button type="submit" className="admin-button">
          Create post
        </button>
      </div>
    </form>
  );
}

export interface EditorPost {
  id: string;
  title: string;
  slug: string;
  collectionId: string;
  author: string;
  publishedOn: string;
  excerpt: string;
  body: string;
  /** As the fields show them ('Coffee, Brewing'). */
  tags: string;
  categories: string;
  status: PublicationStatus;
  publishAt: string;
}

export function PostEditor(
  props: FormProps &
    PostStatusChoices & {
      post: EditorPost;
      blogs: readonly { id: string; title: string; slug: string }[];
      problems: Readonly<Record<string, string>>;
      canSave: boolean;
    },
) {
  const { post, problems } = props;
  const blogSlug = props.blogs.find((b) => b.id === post.collectionId)?.slug ?? '';
  return (
    <form
      className="admin-form admin-card admin-post-form"
      method="post"
      action={postEditorPath(post.id)}
      aria-labelledby="post-heading"
      noValidate
    >
      <h2 id="post-heading">Post</h2>
      <Hidden {...props} />
      <Field
        name="title"
        label="Title"
        problems={problems}
        input={(a) => <input {...a} type="text" required maxLength={200} defaultValue={post.title} />}
      />
      <Field
        name="slug"
        label="URL"
        problems={problems}
        hint={`The post's address: /${blogSlug}/${post.slug}. Lower-case letters, digits and dashes; empty makes one from the title.`}
        input={(a) => (
          <input {...a} type="text" maxLength={64} autoCapitalize="none" spellCheck={false} defaultValue={post.slug} />
        )}
      />
      {props.blogs.length > 1 ? (
        <Field
          name="collectionId"
          label="Blog"
          problems={problems}
          input={(a) => (
            <select {...a} defaultValue={post.collectionId}>
              {props.blogs.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.title}
                </option>
              ))}
            </select>
          )}
        />
      ) : (
        <input type="hidden" name="collectionId" value={post.collectionId} />
      )}
      <Field
        name="author"
        label="Author"
        problems={problems}
        input={(a) => <input {...a} type="text" maxLength={100} defaultValue={post.author} />}
      />
      <Field
        name="publishedOn"
        label="Date"
        problems={problems}
        hint="The date the post shows."
        input={(a) => <input {...a} type="date" required defaultValue={post.publishedOn} />}
      />
      <Field
        name="excerpt"
        label="Excerpt"
        problems={problems}
        hint="Shown in the blog's list; empty shows the text's beginning."
        input={(a) => <textarea {...a} rows={3} maxLength={1000} defaultValue={post.excerpt} />}
      />
      <Field
        name="body"
        label="Text"
        problems={problems}
        hint="Paragraphs separated by an empty line; a #tag links to the blog's posts with that tag."
        input={(a) => <textarea {...a} rows={14} maxLength={100_000} defaultValue={post.body} />}
      />
      <Field
        name="tags"
        label="Tags"
        problems={problems}
        hint={`Separated by commas; each at most ${TAG_MAX_LENGTH} characters.`}
        input={(a) => <input {...a} type="text" defaultValue={post.tags} />}
      />
      <Field
        name="categories"
        label="Categories"
        problems={problems}
        hint="Separated by commas."
        input={(a) => <input {...a} type="text" defaultValue={post.categories} />}
      />
      <StatusFields {...props.status} problems={problems} nested />
      {props.canSave ? (
        <div>
          <button type="submit" className="admin-button">
            Save post
          </button>
        </div>
      ) : null}
    </form>
  );
}

export function DeletePostForm(props: FormProps & { post: { id: string; title: string } }) {
  return (
    <form
      className="admin-form admin-card"
      method="post"
      action={`${postEditorPath(props.post.id)}/delete`}
      aria-labelledby="delete-post-heading"
    >
      <h2 id="delete-post-heading">Delete this post</h2>
      <Hidden {...props} />
      <p>The post leaves the blog. The versions keep it: restoring an earlier version brings it back.</p>
      <ConfirmDelete name={props.post.title} button="Delete post" />
    </form>
  );
}
