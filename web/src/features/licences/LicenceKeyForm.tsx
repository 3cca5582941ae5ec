import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useT } from '../../i18n/useT';
import { getAccessToken } from '../../session/session';
import { appStore } from '../../store';
import { featureErrorMessage, toFeatureError, type FeatureError } from '../../errors/featureError';
import { fieldErrorText } from '../../ui/FieldError';
import { registerLicenceKey } from './api';
import { LICENCE_REGISTER_TEXT_CODES } from './errors';
import { KeyFormCard } from './KeyFormCard';
import { licenceKeySchema, type LicenceKeyForm as KeyForm } from './schemas';

/**
 * Registering a licence by its key (the licence page's form). Its own chunk: react-hook-form and zod load after the
 * list has painted, and `KeyFormCard` holds its place meanwhile.
 */
export default function LicenceKeyForm({
  initialKey,
  onRegistered,
  onFailed,
}: {
  initialKey: string;
  onRegistered: () => void;
  onFailed: (error: FeatureError) => void;
}) {
  const t = useT();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<KeyForm>({ resolver: zodResolver(licenceKeySchema), defaultValues: { licenseKey: initialKey } });

  const onRegister = handleSubmit(async ({ licenseKey }) => {
    try {
      await registerLicenceKey(licenseKey, await getAccessToken(appStore));
      reset({ licenseKey: '' });
      onRegistered();
    } catch (error) {
      const failure = toFeatureError(error);
      if (LICENCE_REGISTER_TEXT_CODES.includes(failure.code)) {
        setError('licenseKey', { type: 'server', message: featureErrorMessage(t, failure) }, { shouldFocus: true });
      } else {
        onFailed(failure);
      }
    }
  });

  return (
    <KeyFormCard
      inputProps={register('licenseKey')}
      error={fieldErrorText(errors.licenseKey, t.licences.validation)}
      submitting={isSubmitting}
      onSubmit={onRegister}
    />
  );
}
