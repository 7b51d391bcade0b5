import { lazy, Suspense, type ComponentProps } from 'react';

const AlertDialog = lazy(() => import('./AlertDialog').then((m) => ({ default: m.AlertDialog })));

/**
 * The add buttons' alert (./AlertDialog.tsx), its code loaded when a first alert is shown: most visits never see
 * one, and the product page's first script stays small. It opens a moment later than the failed add, no more.
 */
export function LaterAlertDialog(props: ComponentProps<typeof AlertDialog>) {
  return (
    <Suspense fallback={null}>
      <AlertDialog {...props} />
    </Suspense>
  );
}
