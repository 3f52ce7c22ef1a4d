import { describe, expect, it } from 'vitest';
import { auditChanges, HIDDEN } from './audit-diff.ts';

describe('what an audit entry changed', () => {
  it('says each changed field, nested ones by their path, and leaves the same ones out', () => {
    const before = { label: 'shop', enabled: true, filters: { pathPrefixes: ['/a'], sources: [] } };
    const after = {
      label: 'shop (front)',
      enabled: true,
      filters: { pathPrefixes: ['/a', '/b'], sources: [] },
    };
    expect(auditChanges(before, after)).toEqual([
      { field: 'filters.pathPrefixes', before: '["/a"]', after: '["/a","/b"]' },
      { field: 'label', before: 'shop', after: 'shop (front)' },
    ]);
  });

  it('a switch is one change without a field; a creation and a deletion have one side null', () => {
    expect(auditChanges(false, true)).toEqual([{ field: '', before: 'false', after: 'true' }]);
    expect(auditChanges(null, { id: 'route_1' })).toEqual([{ field: 'id', before: null, after: 'route_1' }]);
    expect(auditChanges({ id: 'route_1' }, null)).toEqual([{ field: 'id', before: 'route_1', after: null }]);
    expect(auditChanges(null, null)).toEqual([]);
  });

  it('never shows a secret: a changed one says that it changed, hidden on both sides', () => {
    const changes = auditChanges(
      { name: 'alice', token: 'old-secret', nested: { apiKey: 'k1', clientSecret: 's1' } },
      { name: 'alice', token: 'new-secret', nested: { apiKey: 'k2', clientSecret: 's2' } },
    );
    expect(JSON.stringify(changes)).not.toMatch(/secret"|k1|k2|s1|s2|old-|new-/);
    // The same on both sides once hidden: not listed as a change.
    expect(changes).toEqual([]);
    expect(auditChanges(null, { password: 'p' })).toEqual([
      { field: 'password', before: null, after: HIDDEN },
    ]);
  });
});
