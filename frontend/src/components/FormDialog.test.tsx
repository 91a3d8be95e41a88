import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { z } from 'zod';
import { parseErrorBody } from '../api/errors';
import { TextField } from './Field';
import { FormDialog, useZodForm } from './FormDialog';

const schema = z.object({
  name: z.string().trim().min(1, 'Enter a name.'),
  code: z.string().trim(),
});

interface Saved {
  id: number;
}

function NameDialog({ submit, onSuccess, onClose = () => undefined }: { submit: (v: z.output<typeof schema>) => Promise<Saved>; onSuccess?: (r: Saved) => void; onClose?: () => void }) {
  const form = useZodForm(schema, { defaultValues: { name: '', code: '' } });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open
      onClose={onClose}
      title="New thing"
      id="thing-form"
      label="New thing"
      submitLabel="Create thing"
      submit={submit}
      onSuccess={onSuccess}
      fields={['name', 'code']}
    >
      <TextField label="Name" error={errors.name?.message} {...register('name')} />
      <TextField label="Code" error={errors.code?.message} {...register('code')} />
    </FormDialog>
  );
}

function wrap(node: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return render(<QueryClientProvider client={client}>{node}</QueryClientProvider>);
}

describe('FormDialog', () => {
  it('checks the schema before sending anything', async () => {
    const submit = vi.fn(() => Promise.resolve({ id: 1 }));
    wrap(<NameDialog submit={submit} />);
    const user = userEvent.setup();
    const dialog = screen.getByRole('dialog', { name: 'New thing' });
    await user.click(within(dialog).getByRole('button', { name: 'Create thing' }));
    expect(await within(dialog).findByText('Enter a name.')).toBeInTheDocument();
    expect(submit).not.toHaveBeenCalled();
  });

  it('disables the submit while it runs, and sends once', async () => {
    let finish: (r: Saved) => void = () => undefined;
    const submit = vi.fn(() => new Promise<Saved>((resolve) => (finish = resolve)));
    const onSuccess = vi.fn();
    const onClose = vi.fn();
    wrap(<NameDialog submit={submit} onSuccess={onSuccess} onClose={onClose} />);
    const user = userEvent.setup();
    const dialog = screen.getByRole('dialog', { name: 'New thing' });
    await user.type(within(dialog).getByLabelText('Name'), 'Widget');
    const button = within(dialog).getByRole('button', { name: 'Create thing' });
    await user.click(button);
    await vi.waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveAttribute('aria-busy', 'true');
    // Enter in a field while it runs sends nothing more.
    await user.type(within(dialog).getByLabelText('Name'), '{Enter}');
    expect(submit).toHaveBeenCalledTimes(1);
    expect(submit.mock.calls[0]).toEqual([{ name: 'Widget', code: '' }]);

    finish({ id: 7 });
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSuccess).toHaveBeenCalledWith({ id: 7 }, { name: 'Widget', code: '' });
    expect(button).toBeEnabled();
  });

  it("puts a 422's `detail` on its fields and the rest in the banner", async () => {
    const submit = vi.fn(() =>
      Promise.reject(
        parseErrorBody(422, {
          detail: [
            { loc: ['body', 'name'], msg: 'Value error, Name is taken' },
            { loc: ['body', 'colour'], msg: 'Unknown field' },
          ],
        }),
      ),
    );
    const onClose = vi.fn();
    wrap(<NameDialog submit={submit} onClose={onClose} />);
    const user = userEvent.setup();
    const dialog = screen.getByRole('dialog', { name: 'New thing' });
    await user.type(within(dialog).getByLabelText('Name'), 'Widget');
    await user.click(within(dialog).getByRole('button', { name: 'Create thing' }));

    expect(await within(dialog).findByText('Name is taken')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText('Code')).not.toHaveAttribute('aria-invalid');
    expect(within(dialog).getByText('Please correct the highlighted fields. colour: Unknown field')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Create thing' })).toBeEnabled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('shows a plain failure as one sentence, and forgets it on Cancel', async () => {
    const submit = vi.fn(() => Promise.reject(parseErrorBody(400, { detail: 'The code is in use' })));
    const onClose = vi.fn();
    wrap(<NameDialog submit={submit} onClose={onClose} />);
    const user = userEvent.setup();
    const dialog = screen.getByRole('dialog', { name: 'New thing' });
    await user.type(within(dialog).getByLabelText('Name'), 'Widget');
    await user.click(within(dialog).getByRole('button', { name: 'Create thing' }));
    expect(await within(dialog).findByText('The code is in use')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(within(dialog).queryByText('The code is in use')).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText('Name')).toHaveValue('');
  });
});
