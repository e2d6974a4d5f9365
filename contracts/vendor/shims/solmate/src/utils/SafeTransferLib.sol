// SPDX-License-Identifier: MIT
pragma solidity >=0.8.0;

import {ERC20} from "../tokens/ERC20.sol";

/// @notice Stand-in for solmate's SafeTransferLib (AGPL, not vendored), the one function Permit2 calls:
/// transferFrom that reverts unless the call succeeded and returned true or nothing (tokens without a return value),
/// as solmate's does. Written for this repository (contracts/vendor/README.md).
library SafeTransferLib {
    error TransferFromFailed();

    function safeTransferFrom(ERC20 token, address from, address to, uint256 amount) internal {
        (bool success, bytes memory data) =
            address(token).call(abi.encodeWithSelector(ERC20.transferFrom.selector, from, to, amount));
        bool returnedTrue = data.length == 0 ? address(token).code.length > 0 : (data.length == 32 && abi.decode(data, (bool)));
        if (!success || !returnedTrue) revert TransferFromFailed();
    }
}
