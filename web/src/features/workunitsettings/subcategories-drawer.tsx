import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { workUnitSubcategoryInputSchema } from '@cfs/contracts/work-unit-settings';
import { CellLink } from '../../components/cell-link';
import { FormActions } from '../../components/form-actions';
import { FormCheckboxField, FormTextField } from '../../components/form-fields';
import { schemaResolver } from '../../components/form-resolver';
import { ResourceGrid } from '../../components/resource-grid';
import { useInlineEditor } from '../../components/inline-editor';
import { SideDrawer, useUnsavedChangesGuard } from '../../components/side-drawer';
import { useListState } from '../../lib/url-state';
import { SUBCATEGORIES_PATH, useCategory, useSaveSubcategory, type WorkUnitSubcategory } from './api';

/** The subcategories of one category (spec 001 §2 Work unit settings): list, create, edit. `?subcategoriesCategoryId=`. */
export function SubcategoriesDrawer({ categoryId, onClose }: { categoryId: number | null; onClose: () => void }) {
  const category = useCategory(categoryId);
  return (
    <SideDrawer open={categoryId !== null} onClose={onClose} title={`Subcategories${category.data ? `: ${category.data.name}` : ''}`}>
      {categoryId !== null && <CategorySubcategories key={categoryId} categoryId={categoryId} />}
    </SideDrawer>
  );
}

function CategorySubcategories({ categoryId }: { categoryId: number }) {
  const list = useListState({ storage: 'memory', defaults: { sort: [{ field: 'name', direction: 'asc' }] } });
  const editor = useInlineEditor<WorkUnitSubcategory>((row) => row.workUnitSubcategoryId);
  const columns: GridColDef<WorkUnitSubcategory>[] = [
    { field: 'workUnitSubcategoryId', headerName: 'ID', type: 'number', width: 80, align: 'left', headerAlign: 'left' },
    { field: 'name', headerName: 'Name', flex: 1, renderCell: ({ row }) => <CellLink onClick={() => editor.open(row)}>{row.name}</CellLink> },
    { field: 'isEnabled', headerName: 'Enabled', type: 'boolean', width: 100 },
  ];
  return (
    <>
      {editor.editing !== null && (
        <SubcategoryForm
          key={editor.key}
          categoryId={categoryId}
          subcategory={editor.item}
          onClose={editor.close}
        />
      )}
      <ResourceGrid
        list={list}
        path={SUBCATEGORIES_PATH}
        fixedFilter={`workUnitCategoryId eq ${categoryId}`}
        columns={columns}
        getRowId={(row) => row.workUnitSubcategoryId}
        searchFields={['name']}
        onCreate={() => editor.open('new')}
        onRowClick={editor.open}
      />
    </>
  );
}


type SubcategoryValues = z.input<typeof workUnitSubcategoryInputSchema>;

function SubcategoryForm({ categoryId, subcategory, onClose }: { categoryId: number; subcategory?: WorkUnitSubcategory; onClose: () => void }) {
  const form = useForm<SubcategoryValues, unknown, z.output<typeof workUnitSubcategoryInputSchema>>({
    resolver: schemaResolver(workUnitSubcategoryInputSchema),
    defaultValues: { workUnitCategoryId: categoryId, name: subcategory?.name ?? '', isEnabled: subcategory?.isEnabled ?? true },
  });
  const [id, setId] = useState<number | 'new'>(subcategory?.workUnitSubcategoryId ?? 'new');
  const save = useSaveSubcategory(id);
  const guard = useUnsavedChangesGuard();
  return (
    <Paper variant="outlined" component="form" noValidate onSubmit={(event) => event.preventDefault()} sx={{ p: 2, mb: 2 }} aria-label="Subcategory">
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        <Typography variant="subtitle1" sx={{ flex: 1 }}>
          {id === 'new' ? 'Create Subcategory' : 'Edit Subcategory'}
        </Typography>
        <Button size="small" onClick={() => guard.confirmThen(onClose)}>
          Cancel
        </Button>
      </Box>
      <FormTextField control={form.control} name="name" label="Name" required autoFocus />
      <FormCheckboxField control={form.control} name="isEnabled" label="Enabled" />
      <FormActions
        form={form}
        onSave={async (input) => {
          const saved = await save.mutateAsync(input);
          // A second Save of a new subcategory updates it rather than creating another.
          setId(saved.workUnitSubcategoryId);
        }}
        onClose={onClose}
        loading={save.isPending}
      />
    </Paper>
  );
}
