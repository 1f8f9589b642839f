/** The end-user licence agreement shown in the License dialog (spec 000 §1: boilerplate). */
export const EULA_PARAGRAPHS: readonly string[] = [
  'END USER LICENSE AGREEMENT. This agreement is between you (the "User") and the provider of this portal (the "Provider"). By signing in to or using the portal you accept these terms. If you do not accept them, do not use the portal.',
  "1. Licence. The Provider grants the User a non-exclusive, non-transferable, revocable licence to use the portal for the internal business purposes of the User's organisation during the licence term shown in this dialog.",
  '2. Restrictions. The User shall not copy, modify, sell, sublicense or distribute the portal; reverse engineer it except where the law expressly allows; circumvent its security; or use it to break any law or the rights of others.',
  '3. Accounts. The User keeps sign-in credentials confidential and is responsible for all activity under them. Access may be suspended to protect the portal or other users.',
  "4. Data. Data entered by the User remains the property of the User's organisation. The Provider processes it only to operate and support the portal and according to the agreements in place with that organisation.",
  '5. Ownership. The portal, its software and its documentation remain the property of the Provider and its licensors. No rights are granted beyond those stated here.',
  '6. No warranty. The portal is provided "as is", without warranties of any kind, express or implied, including merchantability, fitness for a particular purpose and non-infringement, to the extent the law allows.',
  '7. Limitation of liability. To the extent the law allows, the Provider is not liable for indirect, incidental, special or consequential damages, or for loss of data, profits or business, arising from the use of the portal.',
  "8. Term. This licence ends when the licence term expires or when the User's access is withdrawn. Sections 4 to 8 survive its end.",
  "9. General. This agreement is governed by the law that governs the agreement between the Provider and the User's organisation. If a provision is unenforceable, the remainder stays in effect.",
];
