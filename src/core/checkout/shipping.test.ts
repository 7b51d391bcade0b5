import { describe, expect, it } from 'vitest';
import { chooseShippingOption, shippingOptionsFor, type ShippingOptionRule } from './shipping';

const standard: ShippingOptionRule = {
  id: 'standard',
  name: 'Standard (3–5 days)',
  rate: 500,
  freeOver: 5000,
  countries: [],
};
const express: ShippingOptionRule = { id: 'express', name: 'Express', rate: 1500, countries: ['US', 'CA'] };
const europe: ShippingOptionRule = { id: 'europe', name: 'Europe', rate: 900, freeOver: 0, countries: ['DE', 'FR'] };
const options = [standard, express, europe];

const ids = (country: string | undefined) => shippingOptionsFor(options, country, 1000).map((o) => o.id);

describe('shippingOptionsFor', () => {
  it('offers the options for the country, in the settings’ order; empty countries = every country', () => {
    expect(ids('US')).toEqual(['standard', 'express']);
    expect(ids('CA')).toEqual(['standard', 'express']);
    expect(ids('DE')).toEqual(['standard', 'europe']);
    expect(ids('GB')).toEqual(['standard']);
  });

  it('offers an option that names postal codes only where the code starts with one of them, once it is typed', () => {
    const london: ShippingOptionRule = {
      id: 'courier',
      name: 'Courier',
      rate: 800,
      countries: ['GB'],
      postalCodes: ['SW1A', 'EC1'],
    };
    const all = [standard, london];
    const at = (code?: string) => shippingOptionsFor(all, 'GB', 1000, code).map((o) => o.id);
    expect(at('sw1a 1aa')).toEqual(['standard', 'courier']);
    expect(at('EC1V 9LT')).toEqual(['standard', 'courier']);
    expect(at('M1 1AE')).toEqual(['standard']);
    expect(at('')).toEqual(['standard', 'courier']);
    expect(at()).toEqual(['standard', 'courier']);
    expect(shippingOptionsFor([{ ...london, postalCodes: [] }], 'GB', 0, 'M1 1AE')).toHaveLength(1);
  });

  it('offers every option before a country is chosen', () => {
    expect(ids(undefined)).toEqual(['standard', 'express', 'europe']);
    expect(ids('')).toEqual(['standard', 'express', 'europe']);
    expect(ids('  ')).toEqual(['standard', 'express', 'europe']);
  });

  it('reads the country in any case', () => {
    expect(ids(' ca ')).toEqual(['standard', 'express']);
    expect(shippingOptionsFor([{ ...express, countries: ['us'] }], 'US', 0)).toHaveLength(1);
  });

  it('prices each at its rate', () => {
    expect(shippingOptionsFor(options, 'US', 1000)).toEqual([
      { id: 'standard', name: 'Standard (3–5 days)', amount: 500 },
      { id: 'express', name: 'Express', amount: 1500 },
    ]);
  });

  it('makes an option free at or above its free-over amount (subtotal after discount)', () => {
    expect(shippingOptionsFor([standard], 'US', 4999)[0]?.amount).toBe(500);
    expect(shippingOptionsFor([standard], 'US', 5000)[0]?.amount).toBe(0);
    expect(shippingOptionsFor([standard], 'US', 5001)[0]?.amount).toBe(0);
    expect(shippingOptionsFor([europe], 'FR', 0)[0]?.amount).toBe(0); // free over 0: always free
  });

  it('without free-over the rate always applies', () => {
    expect(shippingOptionsFor([express], 'US', 10_000_000)[0]?.amount).toBe(1500);
    expect(shippingOptionsFor([{ ...express, freeOver: null as unknown as number }], 'US', 10_000_000)[0]?.amount).toBe(
      1500,
    );
  });

  it('a subtotal that is not a number never makes shipping free', () => {
    expect(shippingOptionsFor([standard], 'US', Number.NaN)[0]?.amount).toBe(500);
  });

  it('no options → none offered', () => {
    expect(shippingOptionsFor([], 'US', 1000)).toEqual([]);
  });
});

describe('chooseShippingOption', () => {
  const priced = shippingOptionsFor(options, 'US', 1000);

  it('gives the requested option when it is offered', () => {
    expect(chooseShippingOption(priced, 'express')).toEqual({ id: 'express', name: 'Express', amount: 1500 });
  });

  it.each([undefined, null, '', 'europe', 'EXPRESS', 'nope'])('falls back to the first for %j', (requested) => {
    expect(chooseShippingOption(priced, requested)).toEqual({
      id: 'standard',
      name: 'Standard (3–5 days)',
      amount: 500,
    });
  });

  it('gives null when nothing is offered', () => {
    expect(chooseShippingOption([], 'standard')).toBeNull();
    expect(chooseShippingOption([])).toBeNull();
  });
});
