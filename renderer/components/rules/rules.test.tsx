import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { RulePreviewResult } from '../../../shared/api.ts';
import type { Rule } from '../../../shared/rules.ts';
import { App } from '../../App.tsx';
import { appView, fakeApi } from '../../test/fake-api.ts';

describe('the rule editor', () => {
  it('previews the apps a rule matches before it is saved, then creates it', async () => {
    const api = fakeApi({ apps: [appView('shop-staging', 'Up')] });
    const previews: unknown[] = [];
    api.answer('previewRule', (input: unknown) => {
      previews.push(input);
      const result: RulePreviewResult = {
        position: 0,
        counts: { managed: 1, 'taken-from-rule': 0, 'kept-by-rule': 0, 'kept-by-route': 1 },
        matches: [
          {
            appId: 'app_review',
            name: 'review-7',
            ownerId: 'orga_acme',
            outcome: 'managed',
            otherRuleId: null,
            routeIds: [],
            hosts: ['review-7.review.test'],
            group: null,
          },
          {
            appId: 'app_shop-staging',
            name: 'shop-staging',
            ownerId: 'orga_acme',
            outcome: 'kept-by-route',
            otherRuleId: null,
            routeIds: ['route_shop-staging'],
            hosts: [],
            group: null,
          },
        ],
        unreadOwners: [],
      };
      return result;
    });
    api.answer(
      'createRule',
      (input: Partial<Rule>): Rule => ({ ...(input as Rule), id: 'rule_new', createdAt: 0, updatedAt: 0 }),
    );
    const user = userEvent.setup();
    render(<App api={api} />);
    await user.click(await screen.findByRole('link', { name: /^Routes/ }));
    // The Routes view is a chunk loaded on demand: the button shows once it is in.
    await user.click(await screen.findByRole('button', { name: 'New rule' }));
    const form = within(screen.getByRole('form', { name: 'New rule' }));
    await user.type(form.getByLabelText('Name pattern'), 'review-*');
    await user.type(form.getByLabelText('Wake-proxy hosts'), '{{name}.review.test');
    const preview = within(form.getByRole('region', { name: 'Apps this rule matches now' }));
    await waitFor(() => expect(preview.getByText(/managed by this rule/)).toBeTruthy());
    expect(preview.getByText(/stays with its route/)).toBeTruthy();
    expect(previews.at(-1)).toMatchObject({
      pattern: 'review-*',
      ownerId: null,
      hosts: ['{name}.review.test'],
    });

    await user.click(form.getByRole('button', { name: 'Create the rule' }));
    await waitFor(() => expect(screen.getByText('review-*', { selector: 'th' })).toBeTruthy());
    expect(api.calls.find((c) => c.name === 'createRule')?.input).toMatchObject({
      pattern: 'review-*',
      position: 0,
    });
  });

  it('names a placeholder the pattern cannot fill, on its field, and sends nothing', async () => {
    const api = fakeApi({ apps: [] });
    const user = userEvent.setup();
    render(<App api={api} />);
    await user.click(await screen.findByRole('link', { name: /^Routes/ }));
    // The Routes view is a chunk loaded on demand: the button shows once it is in.
    await user.click(await screen.findByRole('button', { name: 'New rule' }));
    const form = within(screen.getByRole('form', { name: 'New rule' }));
    await user.type(form.getByLabelText('Name pattern'), '*-pr-*');
    await user.type(form.getByLabelText('Group'), 'pr-{{3}');
    await user.click(form.getByRole('button', { name: 'Create the rule' }));
    expect(
      form.getByText('Group: {3} cannot be filled, the pattern has 2 wildcards; use {name}, {1}…{2}.'),
    ).toBeTruthy();
    expect(api.calls.some((c) => c.name === 'createRule')).toBe(false);
  });
});
