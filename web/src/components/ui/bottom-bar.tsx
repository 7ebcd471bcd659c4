import { useRef, type HTMLAttributes } from 'react';
import { useReservedBottomSpace } from '@/lib/bottom-space';
import styles from './bottom-bar.module.css';

/**
 * A translucent band fixed to the bottom of the viewport (above the device's safe area) that
 * reserves its own height at the end of the page, so it never hides the last content for good.
 */
export function BottomBar({ className, children, ...rest }: HTMLAttributes<HTMLDivElement>) {
  const ref = useRef<HTMLDivElement>(null);
  useReservedBottomSpace(ref);
  return (
    <div ref={ref} className={[styles.bar, className ?? ''].filter(Boolean).join(' ')} {...rest}>
      {children}
    </div>
  );
}
