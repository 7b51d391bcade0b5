import { selectVariantLabel } from '../core/labels';
import { optionFieldName } from './addToCartForm';

export interface VariantOptionView {
  name: string;
  values: string[];
}

/**
 * One labelled <select> per variant option (§9 'Select {variantName}' as the empty choice and the accessible name).
 * `invalid` marks the options the shopper still has to choose after a failed add, until each is chosen. Each select
 * posts as `option.{name}` (a form posted without JavaScript: src/ui/addToCartForm.ts).
 */
export function VariantSelectors({
  idPrefix,
  options,
  selected,
  invalid = [],
  onChange,
}: {
  idPrefix: string;
  options: VariantOptionView[];
  selected: Record<string, string>;
  invalid?: readonly string[];
  onChange?: (name: string, value: string) => void;
}) {
  if (options.length === 0) return null;
  return (
    <div className="variant-selectors">
      {options.map((option, i) => {
        const id = `${idPrefix}-option-${i}`;
        const label = selectVariantLabel(option.name);
        return (
          <div className="field" key={option.name}>
            <label htmlFor={id}>{option.name}</label>
            <select
              id={id}
              name={optionFieldName(option.name)}
              aria-label={label}
              aria-invalid={(invalid.includes(option.name) && !selected[option.name]) || undefined}
              value={selected[option.name] ?? ''}
              onChange={(e) => onChange?.(option.name, e.currentTarget.value)}
            >
              <option value="">{label}</option>
              {option.values.map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </select>
          </div>
        );
      })}
    </div>
  );
}
