/**
 * The consent page's scopes: everything the role holds is offered and nothing more; Allow unchanged
 * grants the read scopes asked for (the read tier when none were asked for); a form granting beyond
 * the role, nothing, or an unknown scope grants nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TIER_SCOPES } from '../../../core/scopes.ts';
import { consentChoices, grantedScopes } from './consent-scopes.ts';

test('offered: what the role holds; ticked: the read scopes asked for, or the read tier', () => {
  const asked = ['videos:write', 'videos:read', 'workspace:manage', 'leads:read'] as const;
  assert.deepEqual(consentChoices('owner', asked), { offered: [...TIER_SCOPES.admin], ticked: ['videos:read', 'leads:read'] });
  assert.deepEqual(consentChoices('member', asked), { offered: [...TIER_SCOPES.write], ticked: ['videos:read', 'leads:read'] });
  const viewer = consentChoices('viewer', asked);
  assert.deepEqual(viewer.offered, [...TIER_SCOPES.read]);
  assert.equal(viewer.offered.includes('videos:write'), false, 'nothing beyond the role is offered');
  assert.deepEqual(consentChoices('admin', []).ticked, [...TIER_SCOPES.read]);
  assert.deepEqual(
    consentChoices('member', ['videos:write']).ticked,
    [],
    'asked only to write: nothing is ticked until the person decides',
  );
});

test('a form grants what it names within the role; beyond the role, nothing, or unknown: nothing at all', () => {
  assert.deepEqual(grantedScopes('member', ['videos:write', 'videos:read']), { ok: true, scopes: ['videos:read', 'videos:write'] });
  assert.deepEqual(grantedScopes('viewer', 'analytics:read'), { ok: true, scopes: ['analytics:read'] });
  assert.deepEqual(grantedScopes('member', ['videos:read', 'workspace:manage']), {
    ok: false,
    problem: 'Your role does not hold workspace:manage, so you cannot give it to an assistant.',
  });
  assert.deepEqual(grantedScopes('viewer', ['videos:write']), {
    ok: false,
    problem: 'Your role does not hold videos:write, so you cannot give it to an assistant.',
  });
  for (const submitted of [undefined, []]) {
    assert.deepEqual(grantedScopes('owner', submitted), { ok: false, problem: 'Choose at least one permission to allow, or press Deny.' });
  }
  for (const submitted of [['videos:fly'], [{ scope: 'videos:read' }], Array.from({ length: 51 }, () => 'videos:read')]) {
    const refused = grantedScopes('owner', submitted);
    assert.ok(!refused.ok);
    assert.match(refused.problem, /does not exist/);
  }
});
