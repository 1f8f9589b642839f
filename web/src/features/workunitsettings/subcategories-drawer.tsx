import type { GridColDef } from '@mui/x-data-grid';
import { workUnitSubcategoryInputSchema } from '@cfs/contracts/work-unit-settings';
import { CellLink } from '../../components/cell-link';
import { ItemFormActions } from '../../components/item-form';
import { FormCheckboxField, FormTextField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { ResourceGrid } from '../../components/resource-grid';
import { InlineFormCard, useInlineEditor } from '../../components/inline-editor';
import { SideDrawer } from '../../components/side-drawer';
import { useListState } from '../../lib/url-state';
import { SUBCATEGORIES_PATH, useCategory, useSaveSubcategory, type WorkUnitSubcategory } from './api';

/** The subcategories of one category (spec 001 §2 Work unit settings): list, create, edit. `?subcategoriesCategoryId=`. */
export default function SubcategoriesDrawer({
  categoryId,
  onClose,
}: {
  categoryId: number | null;
  onClose: () => void;
}) {
  const category = useCategory(categoryId);
  return (
    <SideDrawer
      open={categoryId !== null}
      onClose={onClose}
      title={`Subcategories${category.data ? `: ${category.data.name}` : ''}`}
    >
      {categoryId !== null && <CategorySubcategories key={categoryId} categoryId={categoryId} />}
    </SideDrawer>
  );
}

function CategorySubcategories({ categoryId }: { categoryId: number }) {
  const list = useListState({ storage: 'memory', defaults: { sort: [{ field: 'name', direction: 'asc' }] } });
  const editor = useInlineEditor<WorkUnitSubcategory>((row) => row.workUnitSubcategoryId);
  const columns: GridColDef<WorkUnitSubcategory>[] = [
    { field: 'workUnitSubcategoryId', headerName: 'ID', type: 'number', width: 80, align: 'left', headerAlign: 'left' },
    {
      field: 'name',
      headerName: 'Name',
      flex: 1,
      renderCell: ({ row }) => <CellLink onClick={() => editor.open(row)}>{row.name}</CellLink>,
    },
    { field: 'isEnabled', headerName: 'Enabled', type: 'boolean', width: 100 },
  ];
  return (
    <>
      {editor.editing !== null && (
        <SubcategoryForm
          key={editor.key}
          categoryId={categoryId}
          subcategory={editor.item}
          onSaved={editor.saved}
          onClose={editor.close}
        />
      )}
      <ResourceGrid
        list={list}
        path={SUBCATEGORIES_PATH}
        fixedFilter={`workUnitCategoryId eq ${categoryId}`}
        columns={columns}
        essentialColumns={['name', 'isEnabled']}
        getRowId={(row) => row.workUnitSubcategoryId}
        searchFields={['name']}
        onCreate={() => editor.open('new')}
        onRowClick={editor.open}
      />
    </>
  );
}

function SubcategoryForm({
  categoryId,
  subcategory,
  onSaved,
  onClose,
}: {
  categoryId: number;
  subcategory?: WorkUnitSubcategory;
  onSaved: (saved: WorkUnitSubcategory) => void;
  onClose: () => void;
}) {
  const form = useSchemaForm(workUnitSubcategoryInputSchema, {
    workUnitCategoryId: categoryId,
    name: subcategory?.name ?? '',
    isEnabled: subcategory?.isEnabled ?? true,
  });
  const save = useSaveSubcategory(subcategory?.workUnitSubcategoryId ?? 'new');
  return (
    <InlineFormCard
      label="Subcategory"
      title={subcategory ? 'Edit Subcategory' : 'Create Subcategory'}
      onCancel={onClose}
    >
      <FormTextField control={form.control} name="name" label="Name" required autoFocus />
      <FormCheckboxField control={form.control} name="isEnabled" label="Enabled" />
      <ItemFormActions form={form} save={save} onSaved={onSaved} onClose={onClose} />
    </InlineFormCard>
  );
}
