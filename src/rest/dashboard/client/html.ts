/**
 * Preact components written as tagged templates (htm's Preact binding): no JSX step, the esbuild the
 * project already uses bundles them as they are.
 */
export { html } from 'htm/preact';
