/**
 * The editor status of a page, post or product (spec §4: Draft, Scheduled, Needs Review; issue 26): a radio group of
 * the statuses the staff member may choose (src/core/publishing.ts statusChoices) and, for Scheduled, the time it goes
 * live, in the site's time zone. Without JavaScript the time field is always there; the server ignores it unless
 * Scheduled is chosen.
 */
import { STATUS_LABELS, type PublicationStatus } from '../../core/publishing';

export interface StatusFieldProps {
  /** The statuses offered, in the editor's order; the first is checked when `value` is not among them. */
  choices: readonly PublicationStatus[];
  value: PublicationStatus;
  /** The publish time as a `datetime-local` value in the site's time zone ('' when none). */
  publishAt: string;
  timeZone: string;
  problems: Readonly<Record<string, string>>;
}

const HINTS: Readonly<Record<PublicationStatus, string>> = {
  published: 'on the store now',
  draft: 'only staff see it',
  'needs-review': 'a draft waiting for an editor',
  scheduled: 'goes on the store at the time below',
};

export function StatusField(props: StatusFieldProps) {
  const checked = props.choices.includes(props.value) ? props.value : props.choices[0];
  const timeError = props.problems.publishAt;
  const statusError = props.problems.status;
  return (
    <fieldset id="field-status" aria-describedby={statusError ? 'field-status-error' : undefined}>
      <legend>Status</legend>
      {props.choices.map((status) => (
        <div className="admin-check" key={status}>
          <input
            type="radio"
            id={`status-${status}`}
            name="status"
            value={status}
            defaultChecked={status === checked}
          />
          <label htmlFor={`status-${status}`}>
            {STATUS_LABELS[status]} <span className="admin-muted">{`— ${HINTS[status]}`}</span>
          </label>
        </div>
      ))}
      {statusError ? (
        <span className="admin-field-error" id="field-status-error">
          {statusError}
        </span>
      ) : null}
      {props.choices.includes('scheduled') ? (
        <div>
          <label htmlFor="field-publishAt">Publish at</label>
          <input
            id="field-publishAt"
            name="publishAt"
            type="datetime-local"
            defaultValue={props.publishAt}
            {...(timeError ? { 'aria-invalid': true as const, 'aria-describedby': 'field-publishAt-error' } : {})}
          />
          <span className="admin-hint">{`With Scheduled: the date and time in the site’s time zone (${props.timeZone}).`}</span>
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
