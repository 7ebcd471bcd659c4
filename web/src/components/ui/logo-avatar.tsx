import { useState } from 'react';
import { initials } from '@/lib/format';
import styles from './logo-avatar.module.css';

interface LogoAvatarProps {
  name: string;
  logo?: string | null;
  size?: number;
  /** Round for people, rounded square for organisations. */
  shape?: 'round' | 'square';
}

/** A logo, or the name's initials when there is none or it fails to load. */
export function LogoAvatar({ name, logo, size = 48, shape = 'square' }: LogoAvatarProps) {
  const [failed, setFailed] = useState(false);
  const showImage = Boolean(logo) && !failed;
  const style = { width: size, height: size, fontSize: Math.round(size * 0.36) };
  return (
    <span className={`${styles.avatar} ${shape === 'round' ? styles.round : ''}`} style={style}>
      {showImage ? (
        <img src={logo!} alt="" loading="lazy" width={size} height={size} onError={() => setFailed(true)} />
      ) : (
        <span aria-hidden="true" data-testid="logo-initials">
          {initials(name)}
        </span>
      )}
    </span>
  );
}
