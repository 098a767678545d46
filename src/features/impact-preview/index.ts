/** Public surface of the impact preview (what a bundle draft changes in the saved cases). */
export { ImpactPreview, type ImpactPreviewProps } from './ImpactPreview';
