/**
 * The end of every delete form at /admin (a page's, a post's, a product's, a collection's): a required "Yes, delete
 * “…”" checkbox and the danger button. A plain form's parts: the browser refuses to send it unticked, without
 * JavaScript too, and the server checks `confirm=yes` again (a form sent without it is shown again, 422).
 */
export interface ConfirmDeleteProps {
  /** What is deleted, as the owner knows it: the box says 'Yes, delete “{name}”'. */
  name: string;
  /** The button's text ('Delete page'). */
  button: string;
}

export function ConfirmDelete(props: ConfirmDeleteProps) {
  return (
    <>
      <div className="admin-check">
        <input id="delete-confirm" name="confirm" type="checkbox" value="yes" required />
        <label htmlFor="delete-confirm">{`Yes, delete “${props.name}”`}</label>
      </div>
      <div>
        <button type="submit" className="admin-button admin-button-danger">
          {props.button}
        </button>
      </div>
    </>
  );
}
