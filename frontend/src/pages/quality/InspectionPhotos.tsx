import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, ImageOff, ImagePlus, Trash2, Upload } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Field, TextField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { EmptyState, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatBytes, formatDateTime } from '../../lib/format';
import { photoProblem, PHOTO_TYPES, qualityApi, type QcPhoto } from './qualityApi';
import './quality.css';

/** The image behind a photo's `download_url`, fetched with the session's credentials (a bearer token is not sent by an <img>). */
function PhotoImage({ photo }: { photo: QcPhoto }) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let alive = true;
    let made: string | null = null;
    qualityApi
      .photoBlob(photo.download_url)
      .then((blob) => {
        if (!alive || typeof URL.createObjectURL !== 'function') return;
        made = URL.createObjectURL(blob);
        setUrl(made);
      })
      .catch(() => alive && setFailed(true));
    return () => {
      alive = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [photo.download_url]);
  if (failed) return <ImageOff size={22} aria-label="The image could not be loaded" />;
  if (!url) return <Skeleton width="100%" height={110} />;
  return (
    <a href={url} target="_blank" rel="noreferrer" title="Open full size">
      <img src={url} alt={photo.caption ?? photo.file_name} />
    </a>
  );
}

/** An inspection's photos: the list (newest first), an upload (checked here first: PNG, JPEG, WebP or GIF up to 25 MB) and delete. */
export function InspectionPhotos({ inspectionId }: { inspectionId: number }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const fileId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [caption, setCaption] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<QcPhoto | null>(null);
  const photos = useQuery({ queryKey: queryKeys.quality.photos(inspectionId), queryFn: ({ signal }) => qualityApi.photos(inspectionId, signal) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.quality.photos(inspectionId) });
  const upload = useMutation({
    mutationFn: (f: File) => qualityApi.uploadPhoto(inspectionId, f, caption),
    onSuccess: async (p) => {
      toast.success('Photo added', p.caption ?? p.file_name);
      setFile(null);
      setCaption('');
      if (input.current) input.current.value = '';
      await refresh();
    },
    onError: (err) => setProblem(errorMessage(err)),
  });
  const remove = useMutation({
    mutationFn: (p: QcPhoto) => qualityApi.deletePhoto(inspectionId, p.id),
    onSuccess: async () => {
      setDeleting(null);
      toast.success('Photo deleted');
      await refresh();
    },
    onError: (err) => {
      setDeleting(null);
      toast.error('The photo was not deleted', errorMessage(err));
    },
  });

  return (
    <div className="qc-photos">
      <form
        className="qc-upload"
        aria-label="Add a photo"
        onSubmit={(e) => {
          e.preventDefault();
          if (!file) {
            setProblem('Choose an image first.');
            return;
          }
          const why = photoProblem(file);
          setProblem(why);
          if (!why) upload.mutate(file);
        }}
      >
        <Field label="Photo" hint="PNG, JPEG, WebP or GIF, at most 25 MB." error={problem} id={fileId}>
          <input
            ref={input}
            className="input"
            type="file"
            accept={PHOTO_TYPES.join(',')}
            onChange={(e) => {
              const f = e.target.files?.[0] ?? null;
              setFile(f);
              setProblem(f ? photoProblem(f) : null);
            }}
          />
        </Field>
        <TextField label="Caption" maxLength={255} value={caption} onChange={(e) => setCaption(e.target.value)} />
        <Button type="submit" icon={<Upload size={16} />} loading={upload.isPending}>
          Upload
        </Button>
      </form>
      {photos.isPending ? (
        <Skeleton height={110} />
      ) : photos.error ? (
        <ErrorState error={photos.error} onRetry={() => void photos.refetch()} compact />
      ) : photos.data.length === 0 ? (
        <EmptyState compact icon={<ImagePlus size={22} />} title="No photos yet" description="A picture of the defect or of the measurement set-up helps whoever reads this later." />
      ) : (
        <ul className="qc-photos__grid" aria-label="Photos">
          {photos.data.map((p) => (
            <li key={p.id} className="qc-photo">
              <div className="qc-photo__img">
                <PhotoImage photo={p} />
              </div>
              <div className="qc-photo__foot">
                <span title={`${p.file_name} · ${formatBytes(p.file_size)} · ${formatDateTime(p.created_at)}${p.uploaded_by ? ` · ${p.uploaded_by}` : ''}`}>{p.caption ?? p.file_name}</span>
                <Button size="sm" variant="ghost" icon={<Trash2 size={14} />} aria-label={`Delete photo ${p.caption ?? p.file_name}`} onClick={() => setDeleting(p)} />
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this photo?"
        message={`${deleting?.caption ?? deleting?.file_name ?? 'The photo'} is removed from the inspection.`}
        confirmLabel="Delete photo"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}

/** The gate's warnings in amber (warn mode: recorded anyway). */
export function GateWarnings({ warnings, title = 'Recorded with a warning from the inspection gate' }: { warnings: readonly string[]; title?: string }) {
  if (warnings.length === 0) return null;
  return (
    <div className="alert alert--warning" role="status">
      <AlertTriangle size={18} className="alert__icon" aria-hidden="true" />
      <div>
        <strong className="alert__title">{title}</strong>
        {warnings.map((w) => (
          <span key={w}>{w}</span>
        ))}
      </div>
    </div>
  );
}

interface PhotosDialogProps {
  open: boolean;
  inspectionId: number;
  title: ReactNode;
  description?: ReactNode;
  warnings?: readonly string[];
  onClose: () => void;
}

/** An inspection's photos in a modal: right after recording it (with the gate's warnings), or from the history. */
export function InspectionPhotosDialog({ open, inspectionId, title, description, warnings = [], onClose }: PhotosDialogProps) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={title}
      description={description}
      size="lg"
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <div className="form">
        <GateWarnings warnings={warnings} />
        <InspectionPhotos inspectionId={inspectionId} />
      </div>
    </Modal>
  );
}
