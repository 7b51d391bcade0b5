/**
 * The Status fieldset of the page and product editors (issue 26, spec §4's editor statuses): a radio per status the
 * staff member may choose (src/core/publishing.ts statusChoices), and the Publish at time for Scheduled (in the site's
 * time zone; the stylesheet shows it only while Scheduled is chosen). Also the status badge of the lists.
 */
import { STATUS_LABELS, type PublicationStatus } from '../../core/publishing';

export interface StatusFieldsProps {
  choices: readonly { value: PublicationStatus; label: string }[];
  current: PublicationStatus;
  /** A `datetime-local` value in the site's time zone. */
  publishAt: string;
  timeZone: string;
  /** Field name ('status', 'publishAt') → its message. */
  problems: Readonly<Record<string, string | undefined>>;
  /** In a form that is a card already (the new-page form): a plain fieldset. */
  nested?: boolean;
}

/** The fieldset (nothing when the staff member may choose no status: the form then sends none). */
export function StatusFields(props: StatusFieldsProps) {
  if (props.choices.length === 0) return null;
  const statusError = props.problems.status;
  const timeError = props.problems.publishAt;
  const offered = props.choices.some((c) => c.value === props.current);
  return (
    <fieldset
      className={props.nested ? 'admin-status' : 'admin-card admin-status'}
      id="field-status"
      {...(statusError ? { 'aria-describedby': 'field-status-error' } : {})}
    >
      <legend>Status</legend>
      {offered ? null : (
        <p className="admin-hint">{`It is ${STATUS_LABELS[props.current]} now: choose what it becomes.`}</p>
      )}
      {props.choices.map((choice) => (
        <div className="admin-check" key={choice.value}>
          <input
            id={`field-status-${choice.value}`}
            type="radio"
            name="status"
            value={choice.value}
            defaultChecked={choice.value === props.current}
            {...(statusError ? { 'aria-invalid': true as const } : {})}
          />
          <label htmlFor={`field-status-${choice.value}`}>{choice.label}</label>
        </div>
      ))}
      {statusError ? (
        <span className="admin-field-error" id="field-status-error">
          {statusError}
        </span>
      ) : null}
      {props.choices.some((c) => c.value === 'scheduled') ? (
        <div className="admin-publish-at">
          <label htmlFor="field-publishAt">Publish at</label>
          <input
            id="field-publishAt"
            name="publishAt"
            type="datetime-local"
            defaultValue={props.publishAt}
            aria-describedby={`field-publishAt-hint${timeError ? ' field-publishAt-error' : ''}`}
            {...(timeError ? { 'aria-invalid': true as const } : {})}
          />
          <span className="admin-hint" id="field-publishAt-hint">
            {`For Scheduled: when it goes on the store, in the site's time zone (${props.timeZone}).`}
          </span>
          {timeError ? (
            <span className="admin-field-error" id="field-publishAt-error">
              {timeError}
            </span>
          ) : null}
        </div>
      ) : null}
    </fieldset>
  );
}

/** A list row's status, as a badge (a draft's tint tells it apart; the word is the meaning). */
export function StatusBadge(props: { status: PublicationStatus }) {
  return <span className={`admin-badge admin-badge-status-${props.status}`}>{STATUS_LABELS[props.status]}</span>;
}
