import type { HistoryAction } from '../lib/router';
import { describe, expect, test } from 'vitest';
import { createUnsavedChanges, leavesDrawer } from './unsaved-changes';

const at = (pathname: string) => ({ pathname });
const step = (from: string, to: string, historyAction: HistoryAction) => ({
  currentLocation: at(from),
  nextLocation: at(to),
  historyAction,
});
const back = step('/t1/tenants', '/t1/tenants', 'POP');
const closeByAddress = step('/t1/tenants', '/t1/tenants', 'PUSH');

/** A guard whose question is held until the test answers it. */
function guard() {
  const questions: (() => void)[] = [];
  const changes: boolean[] = [];
  const unsaved = createUnsavedChanges({
    ask: (proceed) => questions.push(proceed),
    onDirtyChange: (dirty) => changes.push(dirty),
  });
  return { unsaved, questions, changes };
}

describe('the drawer guard (spec 000 §2 "There are unsaved changes. Are you sure you want to close?")', () => {
  test('runs the action at once, without a question, while nothing is unsaved', () => {
    const { unsaved, questions } = guard();
    let closed = false;
    unsaved.confirmThen(() => (closed = true));
    expect(closed).toBe(true);
    expect(questions).toHaveLength(0);
  });

  test('asks while any part is dirty, and runs the action only on Yes', () => {
    const { unsaved, questions } = guard();
    unsaved.report('form', false);
    unsaved.report('note', true);
    let closed = false;
    unsaved.confirmThen(() => (closed = true));
    expect(closed).toBe(false);
    expect(questions).toHaveLength(1);
    questions[0]?.();
    expect(closed).toBe(true);
  });

  test('is clean again once every dirty part reports clean; tells the drawer of each turn', () => {
    const { unsaved, changes } = guard();
    unsaved.report('form', true);
    unsaved.report('note', true);
    unsaved.report('form', false);
    expect(unsaved.hasUnsavedChanges()).toBe(true);
    unsaved.report('note', false);
    expect(unsaved.hasUnsavedChanges()).toBe(false);
    expect(changes).toEqual([true, false]);
  });

  test("asks a dirty part's own question (a token shown once) instead of the usual one, and the usual one once that part is gone", () => {
    const asked: (string | undefined)[] = [];
    const unsaved = createUnsavedChanges({ ask: (_proceed, question) => asked.push(question) });
    unsaved.report('form', true);
    unsaved.report('token', true, 'The token cannot be seen again.');
    unsaved.confirmThen(() => undefined);
    expect(unsaved.question()).toBe('The token cannot be seen again.');
    unsaved.report('token', false);
    unsaved.confirmThen(() => undefined);
    expect(asked).toEqual(['The token cannot be seen again.', undefined]);
    expect(unsaved.question()).toBeUndefined();
  });

  test('blocks Back and links while dirty, not while clean', () => {
    const { unsaved } = guard();
    expect(unsaved.shouldBlock(back)).toBe(false);
    unsaved.report('form', true);
    expect(unsaved.shouldBlock(back)).toBe(true);
    expect(unsaved.shouldBlock(step('/t1/tenants', '/t1/tokens', 'PUSH'))).toBe(true);
  });

  test('does not block the navigation that a confirmed action starts (the close after Yes), only during it', () => {
    const { unsaved, questions } = guard();
    unsaved.report('form', true);
    const blockedDuringClose: boolean[] = [];
    unsaved.confirmThen(() => blockedDuringClose.push(unsaved.shouldBlock(closeByAddress)));
    questions[0]?.();
    expect(blockedDuringClose).toEqual([false]);
    expect(unsaved.shouldBlock(closeByAddress)).toBe(true);
  });
});

describe('leavesDrawer', () => {
  test('the browser Back or Forward button leaves the drawer, even to the same page', () => {
    expect(leavesDrawer(back)).toBe(true);
    expect(leavesDrawer(step('/t1/tenants', '/t1/workunitsv2', 'POP'))).toBe(true);
  });

  test('a menu link or the logo (a new entry) leaves the drawer', () => {
    expect(leavesDrawer(step('/t1/tenants', '/t1/tokens', 'PUSH'))).toBe(true);
    expect(leavesDrawer(step('/t1/tenants', '/', 'PUSH'))).toBe(true);
  });

  test('opening another item or closing (a new entry on the same page) leaves what the drawer shows', () => {
    expect(leavesDrawer(closeByAddress)).toBe(true);
  });

  test('the drawer writing its own state on the same page (tab, the created id) does not leave it', () => {
    expect(leavesDrawer(step('/workunitsv2', '/workunitsv2', 'REPLACE'))).toBe(false);
  });

  test('a redirect to another page leaves the drawer', () => {
    expect(leavesDrawer(step('/t1/tenants', '/access-denied', 'REPLACE'))).toBe(true);
  });
});
