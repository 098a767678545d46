/**
 * Public surface of the impact preview (what a bundle draft changes in the saved cases). It loads
 * on first show (a chunk of its own): a thread's first load carries the Bundle tab, not this.
 */
import { createElement, Suspense } from 'react';
import { lazyComponent } from '../../components/ui/lazy-component';
import type { ImpactPreviewProps } from './ImpactPreview';

export type { ImpactPreviewProps };

const ImpactPreviewView = lazyComponent(() =>
  import('./ImpactPreview').then((m) => ({ default: m.ImpactPreview })),
);

export function ImpactPreview(props: ImpactPreviewProps) {
  return createElement(Suspense, { fallback: null }, createElement(ImpactPreviewView, props));
}
