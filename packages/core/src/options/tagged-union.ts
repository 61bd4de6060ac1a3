import { Type, type Static, type TObject, type TUnion } from '@sinclair/typebox';

/**
 * A union of objects told apart by their `type` field. Emitted as `oneOf` + `discriminator`, so
 * ajv validates only the branch the `type` names and its errors say which branch failed, instead
 * of one error per branch.
 */
export function taggedUnion<T extends TObject[]>(branches: [...T], options: { description?: string } = {}) {
  return Type.Unsafe<Static<TUnion<T>>>({
    oneOf: branches,
    discriminator: { propertyName: 'type' },
    ...options,
  });
}
