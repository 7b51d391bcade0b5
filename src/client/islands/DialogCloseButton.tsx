/** A dialog's close button: an × icon, named for screen readers by `label` (each dialog's own wording). */
export function DialogCloseButton({
  className,
  label,
  onClose,
  size = 20,
}: {
  className: string;
  label: string;
  onClose: () => void;
  size?: number;
}) {
  return (
    <button type="button" className={className} onClick={onClose} aria-label={label}>
      <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
        <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
    </button>
  );
}
