import { useId, useRef } from 'react';
import { useModalDialog } from './useModalDialog';

/**
 * The centred alert of §2 ('Unable to Add Item' …). A modal <dialog> opened with showModal(): the browser keeps
 * focus inside it and makes the page behind inert; Escape closes it; focus goes back to the opener.
 */
export function AlertDialog({ title, message, onClose }: { title: string; message: string; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const messageId = useId();

  useModalDialog(ref, 'button');

  return (
    <dialog
      ref={ref}
      className="alert-dialog"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={messageId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId} className="alert-dialog__title">
        {title}
      </h2>
      <p id={messageId}>{message}</p>
      <button type="button" className="button" onClick={onClose}>
        OK
      </button>
    </dialog>
  );
}
