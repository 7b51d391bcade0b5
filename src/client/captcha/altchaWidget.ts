/**
 * The ALTCHA widget, loaded only by a form with a CAPTCHA (a dynamic import: no other page pays for it). The
 * "external" build injects no <style> and builds no Worker from a blob: its stylesheet is bundled as a file, and its
 * proof-of-work worker is a file of this site, so the pages' Content-Security-Policy stays 'self' only.
 */
import 'altcha/external';
import 'altcha/altcha.css';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';

globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());

export const ready = true;
