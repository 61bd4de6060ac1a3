export * from './branding-probe.js';
export * from './brand-profile.js';
export * from './css-color.js';
