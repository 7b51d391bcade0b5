/**
 * A variant's weight (issue 26): a number in the store's unit (the site file's `website.store.weightUnit`, kg when
 * absent), kept for shipping rates to come; the storefront shows it nowhere. The editor types it as a decimal.
 */
import { err, ok, type Result } from './result';

export const WEIGHT_UNITS = ['kg', 'g', 'lb', 'oz'] as const;
export type WeightUnit = (typeof WEIGHT_UNITS)[number];
export const DEFAULT_WEIGHT_UNIT: WeightUnit = 'kg';
/** The heaviest weight a variant may have, in any unit (a pallet of goods in grams still fits). */
export const MAX_WEIGHT = 1_000_000;
/** Weights are kept to this many decimals (a gram in kg, a thousandth of a pound). */
export const WEIGHT_DECIMALS = 3;

export const WEIGHT_MESSAGE = `must be a weight like 0.25 (at least 0, at most ${WEIGHT_DECIMALS} decimals)`;

/** Whether `value` is a weight a variant may have: from 0 to MAX_WEIGHT, at most WEIGHT_DECIMALS decimals. */
export function isWeight(value: number): boolean {
  if (!Number.isFinite(value) || value < 0 || value > MAX_WEIGHT) return false;
  const scaled = value * 10 ** WEIGHT_DECIMALS;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
}

/** A weight as typed ('0.25', '1,5' with a decimal comma, '' for none): the number, null for none, or why not. */
export function parseWeight(text: string): Result<number | null, string> {
  const typed = text.trim().replace(',', '.');
  if (typed === '') return ok(null);
  if (!/^\d+(?:\.\d+)?$/.test(typed)) return err(WEIGHT_MESSAGE);
  const value = Number(typed);
  return isWeight(value) ? ok(value) : err(WEIGHT_MESSAGE);
}

/** A weight as the editor shows it: '0.25', '2' ('' for none). */
export const weightText = (weight: number | undefined): string => (weight === undefined ? '' : String(weight));

export const weightUnitOf = (unit: WeightUnit | undefined): WeightUnit => unit ?? DEFAULT_WEIGHT_UNIT;
