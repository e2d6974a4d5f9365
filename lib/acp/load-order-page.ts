// The ACP order permalink page (/acp/orders/:id, the `permalink_url` of a completed checkout session): the
// order as sold, its status and its checkout session. Public like the hosted pay page: the order id is an
// unguessable capability (docs/acp.md); only orders that came by ACP are shown, anything else is 404.
import type { Db } from "../db";
import type { SoldItem } from "../checkouts/price-items";

export interface AcpOrderPage {
  orderId: string;
  checkoutSessionId: string;
  merchantName: string;
  status: string;
  amount: number;
  amountRefunded: number;
  currency: string;
  livemode: boolean;
  items: SoldItem[];
  createdAt: Date;
}

export async function loadAcpOrderPage(db: Db, orderId: string): Promise<AcpOrderPage | null> {
  if (!/^ord_[0-9A-Za-z]{10,64}$/.test(orderId)) return null;
  const session = await db.acpCheckoutSession.findUnique({ where: { orderId }, select: { id: true } });
  if (!session) return null;
  const order = await db.order.findUnique({ where: { id: orderId }, include: { merchant: { select: { name: true } } } });
  if (!order || order.source !== "acp") return null;
  return {
    orderId: order.id,
    checkoutSessionId: session.id,
    merchantName: order.merchant.name,
    status: order.status,
    amount: order.amount,
    amountRefunded: order.amountRefunded,
    currency: order.currency,
    livemode: order.livemode,
    items: order.items as SoldItem[],
    createdAt: order.createdAt,
  };
}
