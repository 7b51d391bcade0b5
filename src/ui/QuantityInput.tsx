import { QUANTITY_MAX, QUANTITY_MIN, QUANTITY_STEP } from '../core/quantity';

/** The attributes of every quantity box (§5, §9): whole numbers 1–9999, a numeric keypad on phones. */
export const QUANTITY_INPUT_ATTRIBUTES = {
  type: 'number',
  inputMode: 'numeric',
  min: QUANTITY_MIN,
  max: QUANTITY_MAX,
  step: QUANTITY_STEP,
} as const;

/** §5 quantity input: whole numbers 1–9999. Whether it shows at all is the core's isQuantityInputShown. */
export function QuantityInput({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange?: (value: string) => void;
}) {
  return (
    <div className="field field--quantity">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name="quantity"
        {...QUANTITY_INPUT_ATTRIBUTES}
        value={value}
        onChange={(e) => onChange?.(e.currentTarget.value)}
      />
    </div>
  );
}
