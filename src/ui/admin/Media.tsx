/**
 * The media library (/admin/media, issue 26): the upload form (a plain multipart form: works without JavaScript) and
 * the site's images, each with where it is shown and, when nothing shows it, a delete button.
 */
import { formatFileSize } from '../../core/media';
import { AdminTableBox } from './AdminFrame';

export const MEDIA_PATH = '/admin/media';

export interface MediaRow {
  path: string;
  /** The image's address (a small rendition) for the thumbnail. */
  thumbnail: string;
  contentType: string;
  width: number;
  height: number;
  bytes: number;
  usedBy: readonly { kind: string; id: string; name: string; href: string | null }[];
}

/** The upload form: the crumb first (read from the form's start even when the file is too large). */
export function UploadForm(props: {
  action: string;
  crumb: string;
  crumbField: string;
  maxBytes: number;
  label?: string;
  back?: string;
}) {
  return (
    <form className="admin-form admin-card" method="post" action={props.action} encType="multipart/form-data">
      <input type="hidden" name={props.crumbField} value={props.crumb} />
      {props.back ? <input type="hidden" name="back" value={props.back} /> : null}
      <p>
        <label htmlFor="media-file">{props.label ?? 'Image'}</label>
        <input
          id="media-file"
          type="file"
          name="file"
          accept="image/jpeg,image/png,image/webp,image/gif,image/tiff,image/avif"
          required
          aria-describedby="media-file-hint"
        />
        <span className="admin-hint" id="media-file-hint">
          {`JPEG, PNG, WebP, GIF, TIFF or AVIF, up to ${formatFileSize(props.maxBytes)}. Stored without its EXIF data (camera, place).`}
        </span>
      </p>
      <p>
        <button type="submit" className="admin-button">
          Upload
        </button>
      </p>
    </form>
  );
}

export function MediaTable(props: { rows: readonly MediaRow[]; crumb: string; crumbField: string; canEdit: boolean }) {
  if (props.rows.length === 0) return <p className="admin-muted">No images yet.</p>;
  return (
    <AdminTableBox label="Images table">
      <table className="admin-table admin-media-table">
        <caption className="admin-sr-only">The site’s images and where each is shown</caption>
        <thead>
          <tr>
            <th scope="col">Image</th>
            <th scope="col">File</th>
            <th scope="col">Size</th>
            <th scope="col">Shown on</th>
            {props.canEdit ? <th scope="col">Delete</th> : null}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr key={r.path}>
              <td>
                <img className="admin-thumb" src={r.thumbnail} alt="" width={64} height={64} loading="lazy" />
              </td>
              <th scope="row">{r.path}</th>
              <td>{`${r.width} × ${r.height} px, ${formatFileSize(r.bytes)}`}</td>
              <td>
                {r.usedBy.length === 0 ? (
                  <span className="admin-muted">Not used</span>
                ) : (
                  <ul className="admin-plain-list">
                    {r.usedBy.map((u) => (
                      <li key={`${u.kind}:${u.id}`}>
                        {u.href ? <a href={u.href}>{`${KIND_WORDS[u.kind] ?? u.kind} “${u.name}”`}</a> : u.name}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
              {props.canEdit ? (
                <td>
                  {r.usedBy.length === 0 ? (
                    <form method="post" action={`${MEDIA_PATH}/delete`}>
                      <input type="hidden" name={props.crumbField} value={props.crumb} />
                      <input type="hidden" name="path" value={r.path} />
                      <button type="submit" className="admin-button admin-button-quiet" aria-label={`Delete ${r.path}`}>
                        Delete
                      </button>
                    </form>
                  ) : (
                    <span className="admin-muted">In use</span>
                  )}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </AdminTableBox>
  );
}

const KIND_WORDS: Readonly<Record<string, string>> = { product: 'Product', page: 'Page', post: 'Post' };
