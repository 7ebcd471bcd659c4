import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import styles from './button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'quiet';
export type ButtonSize = 'sm' | 'md';

function classes(variant: ButtonVariant, size: ButtonSize, block: boolean, extra?: string): string {
  return [styles.button, styles[variant], styles[size], block ? styles.block : '', extra ?? ''].filter(Boolean).join(' ');
}

interface CommonProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
  block?: boolean;
  icon?: ReactNode;
  className?: string;
  children?: ReactNode;
}

/** Splits the look props from the element's own: its class names, its content (icon first) and the rest. */
function look<P extends CommonProps>({ variant = 'primary', size = 'md', block = false, icon, className, children, ...rest }: P) {
  const content = (
    <>
      {icon}
      {children}
    </>
  );
  return { className: classes(variant, size, block, className), content, rest };
}

/** The app's button: primary actions in navy, secondary outlined, ghost for toolbars. */
export function Button({ type = 'button', ...props }: CommonProps & ButtonHTMLAttributes<HTMLButtonElement>) {
  const { className, content, rest } = look(props);
  return (
    <button type={type} className={className} {...rest}>
      {content}
    </button>
  );
}

/** A router link that looks like a button. */
export function LinkButton(props: CommonProps & LinkProps) {
  const { className, content, rest } = look(props);
  return (
    <Link className={className} {...rest}>
      {content}
    </Link>
  );
}
