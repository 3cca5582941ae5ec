/** The filters the sender uses, in their groups, as checkboxes with each filter's description. */
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useT } from '../../i18n/useT';
import type { ShownGroup } from './filters';

export function FilterChoice({ groups, input }: { groups: readonly ShownGroup[]; input: UseFormRegisterReturn }) {
  const t = useT();
  return (
    <fieldset className="report-filters" aria-describedby="report-filters-hint">
      <legend className="field__label">{t.report.filters}</legend>
      <p id="report-filters-hint" className="field__hint">
        {t.report.filtersHint}
      </p>
      {groups.map((group) => (
        <fieldset key={group.id} className="report-filters__group">
          <legend>{group.name}</legend>
          <ul className="report-filters__list">
            {group.filters.map((filter) => (
              <li key={filter.id}>
                <label className="check report-filters__filter">
                  <input type="checkbox" value={String(filter.id)} aria-describedby={`filter-${filter.id}`} {...input} />
                  <span>{filter.name}</span>
                </label>
                <p id={`filter-${filter.id}`} className="field__hint report-filters__description">
                  {filter.description}
                </p>
              </li>
            ))}
          </ul>
        </fieldset>
      ))}
    </fieldset>
  );
}
