import type { ReactNode } from 'react';
import { ChevronLeftIcon, HeartIcon, ShareIcon } from '@/components/icons/icons';
import { Button } from '@/components/ui/button';
import { Notice, useNotice } from '@/components/ui/notice';
import { useGoBack } from '@/lib/use-go-back';
import { useSignedIn } from '@/lib/session';
import { useToggleFavorite, type FavoriteRequest } from '@/api/market/toggle-favorite';
import styles from './profile.module.css';

/** Shares the page: the native share sheet when there is one, otherwise the link is copied. */
export async function sharePage(title: string, showNotice: (text: string) => void): Promise<void> {
  const url = window.location.href;
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title, url });
      return;
    } catch (error) {
      if ((error as DOMException)?.name === 'AbortError') return;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    showNotice('Link copied to clipboard');
  } catch {
    showNotice('Copy this page’s address to share it');
  }
}

interface ProfileToolbarProps {
  title: string;
  favorite: boolean;
  favoriteRequest: (favorite: boolean) => FavoriteRequest;
  extra?: ReactNode;
}

/** Back, Share and (signed in) the favourite heart. */
export function ProfileToolbar({ title, favorite, favoriteRequest, extra }: ProfileToolbarProps) {
  const goBack = useGoBack();
  const signedIn = useSignedIn();
  const notice = useNotice();
  const toggle = useToggleFavorite();

  return (
    <div className={styles.toolbar}>
      <Button variant="ghost" size="sm" icon={<ChevronLeftIcon size={18} />} onClick={goBack}>
        Back
      </Button>
      <div className={styles.toolbarEnd}>
        {extra}
        <Button variant="ghost" size="sm" icon={<ShareIcon size={18} />} onClick={() => void sharePage(title, notice.show)}>
          Share
        </Button>
        {signedIn ? (
          <Button
            variant="ghost"
            size="sm"
            aria-pressed={favorite}
            disabled={toggle.isPending}
            icon={<HeartIcon size={18} filled={favorite} />}
            onClick={() => toggle.mutate(favoriteRequest(!favorite))}
          >
            {favorite ? 'Favorite' : 'Add to favorites'}
          </Button>
        ) : null}
      </div>
      <Notice message={notice.message} />
    </div>
  );
}
