import { useState, type ReactNode } from 'react';
import { lazyWhenOpened } from './lazy-when-opened';

export interface ConfirmDialogProps {
  open: boolean;
  title: ReactNode;
  text?: ReactNode;
  /** Defaults: "Yes"/"No", or "OK"/"Cancel" when the dialog asks for a text. */
  confirmLabel?: string;
  cancelLabel?: string;
  /** A required text input (spec 000 §5): the confirm button is disabled until it is filled. */
  input?: { label: string; multiline?: boolean };
  /** Gets the entered text ('' without an input). A returned promise keeps the buttons disabled until it settles. */
  onConfirm: (text: string) => void | Promise<unknown>;
  onCancel: () => void;
}

/**
 * A yes/no question, optionally with a required text. Its code loads when first asked (or at the
 * user's first move on the page): a page paints without it.
 *
 * @example
 *   <ConfirmDialog open={revoking !== null} title="Revoke token"
 *     text={`Are you sure you want to revoke "${revoking?.name}"?`}
 *     onConfirm={() => revoke.mutateAsync(revoking.id).then(() => setRevoking(null))}
 *     onCancel={() => setRevoking(null)} />
 *   <ConfirmDialog open title="Reject" input={{ label: 'Reason', multiline: true }}
 *     onConfirm={(reason) => reject(reason)} onCancel={close} />
 */
export const ConfirmDialog = lazyWhenOpened<ConfirmDialogProps>(
  () => import('./confirm-dialog-panel'),
  (props) => props.open,
);

/** The item a question is about (the row to delete, the token to revoke), or null while none is asked. */
export interface ItemQuestion<T> {
  item: T | null;
  ask: (item: T) => void;
  close: () => void;
}

export function useItemQuestion<T>(): ItemQuestion<T> {
  const [item, setItem] = useState<T | null>(null);
  return { item, ask: setItem, close: () => setItem(null) };
}

export type ItemConfirmDialogProps<T> = Omit<
  ConfirmDialogProps,
  'open' | 'title' | 'text' | 'onConfirm' | 'onCancel'
> & {
  question: ItemQuestion<T>;
  title: ReactNode | ((item: T) => ReactNode);
  text?: ReactNode | ((item: T) => ReactNode);
  /** The work a Yes starts; the question closes when it settles (a refusal is reported by its mutation). */
  onConfirm: (item: T) => Promise<unknown>;
};

/**
 * A yes/no question about one item, open while `question.item` is set.
 *
 * @example
 *   const deleting = useItemQuestion<Rule>();
 *   { label: 'Delete', onClick: () => deleting.ask(row) }
 *   <ItemConfirmDialog question={deleting} title="Delete Rule"
 *     text={(rule) => RULE_AREA_MESSAGES.deleteConfirm(rule.name)} onConfirm={(rule) => remove.mutateAsync(rule)} />
 */
export function ItemConfirmDialog<T>({ question, title, text, onConfirm, ...rest }: ItemConfirmDialogProps<T>) {
  const { item } = question;
  const about = (content: ReactNode | ((item: T) => ReactNode)) =>
    typeof content === 'function' ? (item === null ? '' : content(item)) : content;
  return (
    <ConfirmDialog
      {...rest}
      open={item !== null}
      title={about(title)}
      text={about(text)}
      onConfirm={() => (item === null ? undefined : onConfirm(item).finally(question.close))}
      onCancel={question.close}
    />
  );
}
