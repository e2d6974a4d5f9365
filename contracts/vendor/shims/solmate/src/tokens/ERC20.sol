// SPDX-License-Identifier: MIT
pragma solidity >=0.8.0;

/// @notice Stand-in for solmate's ERC20 (AGPL, not vendored): Permit2 uses it only as the token's type, for
/// SafeTransferLib.safeTransferFrom. Written for this repository (contracts/vendor/README.md).
abstract contract ERC20 {
    function transferFrom(address from, address to, uint256 amount) public virtual returns (bool);
}
