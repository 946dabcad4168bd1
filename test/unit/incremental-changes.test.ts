import assert from 'node:assert/strict';
import { createChangeLog } from '../../src/server/changes';

describe("the language server's change log", () => {
  it('keeps an edit made while a lint ran pending for the next lint, per group', () => {
    const log = createChangeLog();
    assert.equal(log.since('A'), undefined, 'a group never linted walks its folder');
    log.done('A', log.mark());
    log.done('B', log.mark());
    assert.deepEqual(log.since('A'), []);

    log.file('a1');
    const seen = log.mark();
    // The lint that started at `seen` is still running when the next edit comes.
    log.file('a2');
    log.file('a1');
    log.done('A', seen);
    assert.deepEqual(log.since('A')!.sort(), ['a1', 'a2']);
    log.done('A', log.mark());
    assert.deepEqual(log.since('A'), []);
    // B has not linted since: it still sees both files.
    assert.deepEqual(log.since('B')!.sort(), ['a1', 'a2']);
  });

  it('asks every group to walk its folder again after files come or go, until it has linted since', () => {
    const log = createChangeLog();
    log.done('A', log.mark());
    log.done('B', log.mark());
    const before = log.mark();
    log.reloadAll();
    assert.equal(log.since('A'), undefined);
    log.done('A', before);
    assert.equal(log.since('A'), undefined, 'a lint that started before the event did not see it');
    log.done('A', log.mark());
    assert.deepEqual(log.since('A'), []);
    assert.equal(log.since('B'), undefined);
    log.forget('B');
    assert.equal(log.since('B'), undefined);
  });
});
