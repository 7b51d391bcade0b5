/** Every timing and duration of spec §4 and §9, named once. Milliseconds unless the name says otherwise. */

// Add-to-cart button (§4, §9)
/** After a successful add the button reads 'Added!' this long after the request ends. */
export const ADDED_LABEL_DELAY_MS = 1000;
/** The 'Added!' label stays this long before the button returns to idle. */
export const ADDED_LABEL_DURATION_MS = 2000;
/** After a failed add the button returns to idle after this long. */
export const FAILED_RESET_DELAY_MS = 1000;
/** 'Select Option' shows this long when options are unselected. */
export const SELECT_OPTION_LABEL_MS = 2000;
/** Scale animation of the button. */
export const BUTTON_SCALE_ANIMATION_MS = 200;

// 'Added to cart' popover on product list pages (§4, §9)
export const POPOVER_SHOW_DELAY_MS = 1000;
export const POPOVER_AUTO_DISMISS_MS = 3000;
export const POPOVER_SCROLL_THROTTLE_MS = 100;
export const POPOVER_OFFSET_TOP_PX = 33;
export const POPOVER_OFFSET_SIDE_PX = 16;

// Visitor tracking (§4, §9)
export const SESSION_COOKIE_MAX_AGE_MS = 30 * 60 * 1000;
export const VISIT_COOKIE_MAX_AGE_MS = 2 * 365 * 24 * 60 * 60 * 1000;
export const ANALYTICS_ID_COOKIE_MAX_AGE_MS = 390 * 24 * 60 * 60 * 1000;
export const CENSUS_TIMEOUT_MS = 2500;

// Performance measurement (§7, §9)
export const PERFORMANCE_BATCH_DELAY_MS = 30_000;
export const METRIC_COLLECTION_MAX_WAIT_MS = 60_000;
/** Ours: the measurement module loads when the browser is idle after load, or after this long at the latest. */
export const MEASUREMENT_IDLE_TIMEOUT_MS = 2000;

// Error reporter (§9)
export const ERROR_REPORT_DEBOUNCE_MS = 1000;

// Scroll animation defaults (§9)
export const SCROLL_ANIMATION_MIN_DURATION_MS = 50;
export const SCROLL_ANIMATION_MAX_DURATION_MS = 50;
export const SCROLL_ANIMATION_OFFSET_PX = 30;
export const TWEEN_DURATION_MS = 300;
