import { useT } from '../../i18n/useT';
import { PageMeta } from '../../ui/PageMeta';
import { RELEASE_NOTES } from './notes';
import './ReleaseNotesPage.css';

/** /{lang}/release-notes: the versions, newest first, or the empty state while there are none. */
export default function ReleaseNotesPage() {
  const t = useT();
  const notes = RELEASE_NOTES;
  return (
    <section className="page release-notes">
      <PageMeta title={t.releaseNotes.heading} />
      <h1 className="page__heading">{t.releaseNotes.heading}</h1>
      {notes.length === 0 ? (
        <div className="release-notes__empty">
          <p className="release-notes__empty-title">{t.releaseNotes.empty}</p>
          <p>{t.releaseNotes.emptyHint}</p>
        </div>
      ) : (
        <ol className="release-notes__list">
          {notes.map((note) => (
            <li key={`${note.product}-${note.version}`}>
              <h2>
                {note.product} {note.version}
              </h2>
              <p className="release-notes__date">{note.date}</p>
              <ul>
                {note.changes.map((change) => (
                  <li key={change}>{change}</li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
